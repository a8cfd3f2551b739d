import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const credentials = managementHeaders(await newManagementKey(runtime));
  const management = apiClient({ runtime }, credentials);
  const [a, b] = await Promise.all([newProject(runtime, 'users A'), newProject(runtime, 'users B')]);
  return { runtime, credentials, management, a: a.project_id, b: b.project_id };
}

const unique = () => `u${Math.random().toString(36).slice(2, 10)}@shop.example`;
const invite = (email: string, projects: Record<string, string>) => ({ json: { email, first_name: 'Alex', last_name: 'Doe', projects } });

async function invited(management: ReturnType<typeof apiClient>, projectId: string, role = 'USER'): Promise<Json> {
  const email = unique();
  expect((await management.call('invite-user', invite(email, { [projectId]: role }))).status).toBe(204);
  const listed = (await management.call('list-users', { params: { projectId } })).json as { data: Json[] };
  const found = listed.data.find((u) => u.email === email);
  if (!found) throw new Error(`${email} not listed`);
  return found;
}

describe('Users of the Management API (/management/v1/projects/{projectId}/users, /management/v1/projects/users/invite)', () => {
  it('invites a user into projects, then assigns, reads, changes the role of and unassigns it', async () => {
    const { management, a, b } = await setup();
    const email = unique();
    expect((await management.call('invite-user', invite(email, { [a]: 'ADMIN' }))).status).toBe(204);
    const listed = await management.call('list-users', { params: { projectId: a } });
    expect(listed.status, JSON.stringify(listed.json)).toBe(200);
    const user = (listed.json.data as Json[])[0] as Json;
    expect(listed.json).toMatchObject({ object: 'list', data_ref: 'data', total: 1 });
    expect(user).toEqual({
      id: expect.stringMatching(/^user_/),
      login: email,
      email,
      first_name: 'Alex',
      last_name: 'Doe',
      projects: { [a]: 'ADMIN' },
      role: 'ADMIN',
      is_owner: false,
    });
    const userId = user.id as string;

    const assigned = await management.call('assign-user', { params: { projectId: b }, json: { login: email.toUpperCase(), role: 'VIEWER' } });
    expect(assigned.status, JSON.stringify(assigned.json)).toBe(200);
    expect(assigned.json).toMatchObject({ id: userId, role: 'VIEWER', projects: { [a]: 'ADMIN', [b]: 'VIEWER' } });
    expect((await management.call('get-user', { params: { projectId: b, userId } })).json).toEqual(assigned.json);
    expect((await management.call('get-user', { params: { projectId: a, userId } })).json).toMatchObject({ role: 'ADMIN' });

    const changed = await management.call('update-user', { params: { projectId: b, userId }, json: { role: 'MERCHANT' } });
    expect(changed.json).toMatchObject({ role: 'MERCHANT', projects: { [a]: 'ADMIN', [b]: 'MERCHANT' } });

    expect((await management.call('unassign-user', { params: { projectId: b, userId } })).status).toBe(204);
    const gone = await management.call('get-user', { params: { projectId: b, userId } });
    expect(gone.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'user', resource_id: userId });
    expect((await management.call('unassign-user', { params: { projectId: b, userId } })).status).toBe(404);
    expect((await management.call('update-user', { params: { projectId: b, userId }, json: { role: 'USER' } })).status).toBe(404);
    expect((await management.call('list-users', { params: { projectId: b } })).json).toMatchObject({ data: [], total: 0 });
    // Still a user of A, and can be assigned to B again, by id.
    expect((await management.call('get-user', { params: { projectId: a, userId } })).json).toMatchObject({ projects: { [a]: 'ADMIN' } });
    expect((await management.call('assign-user', { params: { projectId: b }, json: { id: userId, role: 'USER' } })).json).toMatchObject({ role: 'USER' });
  });

  it('refuses an email that is a login already (409), unknown users (404), both or neither of id and login, and unknown roles (400)', async () => {
    const { management, a, b } = await setup();
    const user = await invited(management, a);
    const again = await management.call('invite-user', invite((user.email as string).toUpperCase(), { [b]: 'USER' }));
    expect(again.json).toMatchObject({ code: 409, key: 'duplicate_found', resource_type: 'user' });
    expect((await management.call('list-users', { params: { projectId: b } })).json).toMatchObject({ total: 0 });
    expect((await management.call('assign-user', { params: { projectId: a }, json: { id: user.id, role: 'USER' } })).json).toMatchObject({ code: 409 });
    expect((await management.call('assign-user', { params: { projectId: b }, json: { id: 'user_nope', role: 'USER' } })).json).toMatchObject({
      code: 404,
      resource_type: 'user',
    });
    expect((await management.call('assign-user', { params: { projectId: b }, json: { login: 'nobody@x.example', role: 'USER' } })).status).toBe(404);
    for (const json of [{ role: 'USER' }, { id: user.id, login: user.login, role: 'USER' }, { id: user.id, role: 'role_custom1' }, { id: user.id }]) {
      const reply = await management.call('assign-user', { params: { projectId: b }, json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
    }
    expect((await management.call('invite-user', invite(unique(), {}))).status).toBe(400);
    expect((await management.call('invite-user', invite('not-an-email', { [a]: 'USER' }))).status).toBe(400);
  });

  it('lets one of concurrent invitations of an email and one of concurrent assignments win', async () => {
    const { management, a, b } = await setup();
    const email = unique();
    const invites = await Promise.all(Array.from({ length: 5 }, () => management.call('invite-user', invite(email, { [a]: 'USER' }))));
    expect(invites.map((r) => r.status).sort()).toEqual([204, 409, 409, 409, 409]);
    const userId = ((await management.call('list-users', { params: { projectId: a } })).json.data as Json[])[0]?.id as string;
    const assigns = await Promise.all(
      Array.from({ length: 5 }, () => management.call('assign-user', { params: { projectId: b }, json: { id: userId, role: 'USER' } })),
    );
    expect(assigns.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await management.call('list-users', { params: { projectId: b } })).json).toMatchObject({ total: 1 });
  });

  it("never shows a project's users under another project's id, and answers 404 project for a missing or deleted project", async () => {
    const { management, a, b } = await setup();
    const user = await invited(management, a);
    const userId = user.id as string;
    expect((await management.call('list-users', { params: { projectId: b } })).json).toMatchObject({ data: [], total: 0 });
    expect((await management.call('get-user', { params: { projectId: b, userId } })).json).toMatchObject({ code: 404, resource_type: 'user' });
    expect((await management.call('update-user', { params: { projectId: b, userId }, json: { role: 'ADMIN' } })).status).toBe(404);
    expect((await management.call('unassign-user', { params: { projectId: b, userId } })).status).toBe(404);
    expect((await management.call('get-user', { params: { projectId: a, userId } })).json).toMatchObject({ role: 'USER', projects: { [a]: 'USER' } });

    expect((await management.call('delete-project', { params: { projectId: b } })).status).toBe(204);
    for (const projectId of ['proj_nope', b]) {
      const replies = [
        await management.call('assign-user', { params: { projectId }, json: { id: userId, role: 'USER' } }),
        await management.call('list-users', { params: { projectId } }),
        await management.call('get-user', { params: { projectId, userId } }),
        await management.call('update-user', { params: { projectId, userId }, json: { role: 'USER' } }),
        await management.call('unassign-user', { params: { projectId, userId } }),
        await management.call('invite-user', invite(unique(), { [a]: 'USER', [projectId]: 'USER' })),
      ];
      for (const reply of replies) expect(reply.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'project', resource_id: projectId });
    }
    // The refused invitation wrote nothing: A still has its one user.
    expect((await management.call('list-users', { params: { projectId: a } })).json).toMatchObject({ total: 1 });
  });

  it('replays an invitation and a role change sent again with the same Idempotency-Key', async () => {
    const { management, credentials, a } = await setup();
    const email = unique();
    const headers = { ...credentials, 'idempotency-key': `invite-${email}` };
    expect((await management.call('invite-user', { ...invite(email, { [a]: 'USER' }), headers })).status).toBe(204);
    const again = await management.call('invite-user', { ...invite(email, { [a]: 'USER' }), headers });
    expect(again.status).toBe(204);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    const userId = ((await management.call('list-users', { params: { projectId: a } })).json.data as Json[])[0]?.id as string;
    const put = { params: { projectId: a, userId }, json: { role: 'VIEWER' }, headers: { ...credentials, 'idempotency-key': `role-${userId}` } };
    const first = await management.call('update-user', put);
    const second = await management.call('update-user', put);
    expect(second.json).toEqual(first.json);
    expect(second.headers['Idempotent-Replayed']).toBe('true');
  });
});
