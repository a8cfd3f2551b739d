import * as z from '../zod.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { DuplicateError, InvalidPayloadError, MetadataValidationError, NotFoundError } from '../errors.js';
import { laterStamp } from '../management/later-stamp.js';
import { requireProject } from '../projects/require-project.js';
import type { Runtime } from '../runtime.js';
import type { CustomEventSchema, EventPropertyDefinition, PropertyType } from './event-schema.js';
import * as repo from './event-schema.repo.js';
import { type CreateEventSchemaBody, MAX_SCHEMA_PROPERTIES, type UpdateEventSchemaBody } from './event-schema.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * POST /v1/custom-event-schemas: defines an event name and its metadata properties.
 * @throws DuplicateError when the project already has a schema of that name (case-sensitive).
 */
export async function createCustomEventSchema(
  deps: Deps & Pick<Runtime, 'clock' | 'ids'>,
  projectId: string,
  body: CreateEventSchemaBody,
): Promise<CustomEventSchema> {
  const schema: CustomEventSchema = {
    id: deps.ids.id('ms'),
    projectId,
    name: body.name,
    properties: Object.fromEntries(
      Object.entries(body.schema.properties).map(([name, p]) => [name, { type: p.type, optional: p.optional, deleted: p.deleted ?? false }]),
    ),
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  if (!(await repo.insertEventSchema(deps, schema))) {
    throw new DuplicateError('custom_event_schema', `Duplicated custom_event_schema exists with name ${schema.name}`, schema.name);
  }
  return schema;
}

/**
 * A schema by id (`ms_...`) or by event name; an id wins when a string is both.
 * @throws NotFoundError (custom_event_schema).
 */
export async function getCustomEventSchema(deps: Deps, projectId: string, idOrName: string): Promise<CustomEventSchema> {
  const [nameOfId, byName] = await Promise.all([
    idOrName.startsWith('ms_') ? repo.getEventSchemaNameById(deps, projectId, idOrName) : Promise.resolve(null),
    repo.getEventSchemaByName(deps, projectId, idOrName),
  ]);
  const found = nameOfId !== null ? await repo.getEventSchemaByName(deps, projectId, nameOfId) : byName;
  if (!found) throw new NotFoundError('custom_event_schema', idOrName);
  return found;
}

/**
 * The schema an event of this name must follow.
 * @throws NotFoundError (custom_event_schema, resource_id = the event name) when the project does not define it.
 */
export async function requireEventSchema(deps: Deps, projectId: string, eventName: string): Promise<CustomEventSchema> {
  const schema = await repo.getEventSchemaByName(deps, projectId, eventName);
  if (!schema) throw new NotFoundError('custom_event_schema', eventName);
  return schema;
}

/** GET /v1/custom-event-schemas: every schema of the project, oldest first. */
export async function listCustomEventSchemas(deps: Deps, projectId: string): Promise<CustomEventSchema[]> {
  return repo.listEventSchemas(deps, projectId);
}

/**
 * update-custom-event-schema (Management API): the properties sent replace those of the same name,
 * the others stay; the name never changes. Events check the new properties from the reply on.
 * @throws NotFoundError (project, custom_event_schema), InvalidPayloadError (over the property limit),
 *   ConflictRetryError (kept losing to concurrent changes).
 */
export async function updateCustomEventSchema(
  deps: Deps & Pick<Runtime, 'clock'>,
  projectId: string,
  idOrName: string,
  body: UpdateEventSchemaBody,
): Promise<CustomEventSchema> {
  await requireProject(deps, projectId);
  return retryOnConflict(`Too many concurrent changes of custom event schema ${idOrName}`, async () => {
    const current = await getCustomEventSchema(deps, projectId, idOrName);
    const properties = { ...current.properties };
    for (const [name, p] of Object.entries(body.schema.properties)) properties[name] = { type: p.type, optional: p.optional, deleted: p.deleted ?? false };
    if (Object.keys(properties).length > MAX_SCHEMA_PROPERTIES)
      throw new InvalidPayloadError(`schema.properties: the schema would define more than ${MAX_SCHEMA_PROPERTIES} properties`);
    const next: CustomEventSchema = { ...current, properties, updatedAt: laterStamp(deps.clock.now(), current.updatedAt) };
    return (await repo.replaceEventSchema(deps, current, next)) ? next : RETRY;
  });
}

/**
 * delete-custom-event-schema (Management API): the event name is no longer defined, so POST
 * /v1/events refuses it (404) from the reply on, and the name can be defined again.
 * @throws NotFoundError (project, custom_event_schema; also to the loser of two concurrent deletes).
 */
export async function deleteCustomEventSchema(deps: Deps, projectId: string, idOrName: string): Promise<void> {
  await requireProject(deps, projectId);
  const current = await getCustomEventSchema(deps, projectId, idOrName);
  if (!(await repo.removeEventSchema(deps, current))) throw new NotFoundError('custom_event_schema', idOrName);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isoDateTime = z.iso.datetime({ offset: true });

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() + 1 === Number(m[2]) && d.getUTCDate() === Number(m[3]);
}

const fits: Record<PropertyType, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  date: (v) => typeof v === 'string' && isCalendarDate(v),
  datetime: (v) => typeof v === 'string' && isoDateTime.safeParse(v).success,
};

const expected: Record<PropertyType, string> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be a boolean',
  date: 'must be a date (YYYY-MM-DD)',
  datetime: 'must be an ISO 8601 date-time with a time zone',
};

const shown = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

function problemOf(name: string, definition: EventPropertyDefinition, value: unknown): string | null {
  if (definition.deleted) return null;
  if (value === undefined || value === null) return definition.optional ? null : `${name}: is required`;
  return fits[definition.type](value) ? null : `${name}: ${expected[definition.type]} (actual value is ${shown(value)})`;
}

/**
 * Checks an event's metadata against its schema: every defined property has its type, and every
 * required one is present (null counts as absent). Properties the schema does not define pass as sent.
 * @throws MetadataValidationError naming each offending property, in Voucherify's `name: problem` phrasing.
 */
export function validateEventMetadata(schema: CustomEventSchema, metadata: Record<string, unknown>): void {
  const problems = Object.entries(schema.properties).flatMap(([name, definition]) => {
    const problem = problemOf(name, definition, Object.hasOwn(metadata, name) ? metadata[name] : undefined);
    return problem ? [problem] : [];
  });
  if (problems.length > 0) throw new MetadataValidationError(`${problems.join('; ')} (custom event ${schema.name})`);
}
