/** Pure helpers of the benchmark: arguments, percentiles, formatting. No I/O, so unit tests cover them. */

export interface BenchOptions {
  quick: boolean;
  out: string | null;
  /** Items to run (1..LAST_ITEM); empty = all. */
  only: number[];
}

/** The last item of the suite (item 19: voucher CSV import, issue 38). */
export const LAST_ITEM = 19;

export const BENCH_USAGE = 'usage: npm run bench -- [--quick] [--out FILE] [--only 1,3,6]';

/** @throws Error with the usage line on an unknown or incomplete argument. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { quick: false, out: null, only: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '' || v.startsWith('--')) throw new Error(`${name} needs a value. ${BENCH_USAGE}`);
      return v;
    };
    if (name === '--quick') options.quick = true;
    else if (name === '--out') options.out = value();
    else if (name === '--only') {
      options.only = value()
        .split(',')
        .map((s) => {
          const n = Number(s.trim());
          if (!Number.isInteger(n) || n < 1 || n > LAST_ITEM) throw new Error(`--only takes item numbers 1 to ${LAST_ITEM}, not "${s}". ${BENCH_USAGE}`);
          return n;
        });
    } else throw new Error(`Unknown argument ${arg}. ${BENCH_USAGE}`);
  }
  return options;
}

/** The p-th percentile (0..100) by nearest rank on a sorted copy; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 2 : 1)} ms` : '–');
export const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
export const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
export const perSecond = (n: number): string => `${Math.round(n).toLocaleString('en-US')}/s`;
export const ratio = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');

/** Lays rows out as a plain-text table (first row = header), columns padded to their widest cell. */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  if (!head) return '';
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
