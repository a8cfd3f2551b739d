/**
 * Structured JSON logs, one line per entry, the shape CloudWatch Logs Insights queries well.
 * Callers pass explicit fields; nothing here ever serialises a whole event or header set,
 * which is how secrets (X-App-Token, bearer tokens) stay out of the logs.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  now: () => Date = () => new Date(),
): Logger {
  const emit = (lvl: LogLevel, message: string, fields?: LogFields): void => {
    if (order[lvl] < order[level]) return;
    write(JSON.stringify({ level: lvl, time: now().toISOString(), message, ...fields }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A logger that adds `fields` to every line it writes (a line's own fields win), e.g. the
 * request ids of one invocation, so whatever code the invocation reaches logs them too.
 * Works over any Logger, including the capturing ones tests build.
 */
export function childLogger(parent: Logger, fields: LogFields): Logger {
  return {
    debug: (m, f) => parent.debug(m, { ...fields, ...f }),
    info: (m, f) => parent.info(m, { ...fields, ...f }),
    warn: (m, f) => parent.warn(m, { ...fields, ...f }),
    error: (m, f) => parent.error(m, { ...fields, ...f }),
  };
}
