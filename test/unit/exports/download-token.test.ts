import { describe, expect, it } from 'vitest';
import { DOWNLOAD_TOKEN_SECONDS, mintDownloadToken, readDownloadToken, verifyDownloadToken } from '../../../lib/exports/download-token.js';

const now = new Date('2030-01-01T00:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);

describe('download tokens', () => {
  it('verifies for its project and export until it expires', () => {
    const token = mintDownloadToken('secret', 'proj_1', 'exp_1', now);
    const claims = readDownloadToken(token);
    expect(claims?.projectId).toBe('proj_1');
    expect(verifyDownloadToken(claims!, 'secret', 'exp_1', later(DOWNLOAD_TOKEN_SECONDS - 1))).toBe(true);
    expect(verifyDownloadToken(claims!, 'secret', 'exp_1', later(DOWNLOAD_TOKEN_SECONDS))).toBe(false);
  });

  it('fails for another export, another secret or a changed project or expiry', () => {
    const token = mintDownloadToken('secret', 'proj_1', 'exp_1', now);
    const claims = readDownloadToken(token)!;
    expect(verifyDownloadToken(claims, 'secret', 'exp_2', now)).toBe(false);
    expect(verifyDownloadToken(claims, 'other', 'exp_1', now)).toBe(false);
    const [, exp, mac] = token.split('.');
    const otherProject = readDownloadToken(`${Buffer.from('proj_2').toString('base64url')}.${exp}.${mac}`)!;
    expect(verifyDownloadToken(otherProject, 'secret', 'exp_1', now)).toBe(false);
    const [p] = token.split('.');
    expect(verifyDownloadToken(readDownloadToken(`${p}.${Number(exp) + 3600}.${mac}`)!, 'secret', 'exp_1', now)).toBe(false);
  });

  it('reads nothing from a malformed token', () => {
    expect(readDownloadToken('')).toBeNull();
    expect(readDownloadToken('a.b.c')).toBeNull();
  });
});
