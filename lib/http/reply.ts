/** What a handler's domain call turns into; the envelope adds the common headers. */
export interface HttpReply {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): HttpReply => ({ statusCode: 200, body });
export const created = (body: unknown): HttpReply => ({ statusCode: 201, body });
export const accepted = (body: unknown): HttpReply => ({ statusCode: 202, body });
export const noContent = (): HttpReply => ({ statusCode: 204 });
/** 302 to `location` (e.g. a presigned file URL): the client fetches the body from there. */
export const redirect = (location: string): HttpReply => ({ statusCode: 302, headers: { Location: location } });
