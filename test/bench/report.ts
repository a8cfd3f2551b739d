import { ratio, textTable } from './stats.js';

/** One measured figure beside its floor and target. */
export interface Check {
  name: string;
  /** The figure as measured (unit in `unit`). */
  measured: number;
  /** What the same work costs without our code (raw SDK calls), measured in the same run; null = an absolute limit. */
  floor: number | null;
  unit: string;
  /** The target in words, e.g. "≤ 1.25 × floor + 2 ms". */
  target: string;
  /** The bound the target sets for this run (null when the figure is only reported). */
  bound: number | null;
  /** null = reported, no target. */
  pass: boolean | null;
  /** Printable forms of measured / floor / bound. */
  show: { measured: string; floor: string; bound: string };
  note?: string;
}

export interface Section {
  item: number;
  title: string;
  checks: Check[];
  /** Figures worth keeping that are not checks (sizes, call counts, throughput). */
  details: Record<string, unknown>;
  notes: string[];
  seconds: number;
}

export interface CheckInput {
  name: string;
  measured: number;
  floor?: number | null;
  unit: string;
  target?: string;
  bound?: number | null;
  /** 'max': measured must be ≤ bound; 'min': ≥ bound. */
  direction?: 'max' | 'min';
  format: (n: number) => string;
  note?: string;
}

export function check(input: CheckInput): Check {
  const bound = input.bound ?? null;
  const floor = input.floor ?? null;
  const pass = bound === null ? null : input.direction === 'min' ? input.measured >= bound : input.measured <= bound;
  return {
    name: input.name,
    measured: input.measured,
    floor,
    unit: input.unit,
    target: input.target ?? 'reported',
    bound,
    pass,
    show: {
      measured: input.format(input.measured),
      floor: floor === null ? '' : input.format(floor),
      bound: bound === null ? '' : input.format(bound),
    },
    ...(input.note ? { note: input.note } : {}),
  };
}

const verdict = (pass: boolean | null): string => (pass === null ? '' : pass ? 'pass' : 'FAIL');

export function sectionTable(section: Section): string {
  const rows = [
    ['check', 'measured', 'floor', 'vs floor', 'target', 'bound', 'result'],
    ...section.checks.map((c) => [c.name, c.show.measured, c.show.floor, c.floor ? ratio(c.measured / c.floor) : '', c.target, c.show.bound, verdict(c.pass)]),
  ];
  const notes = section.notes.map((n) => `  note: ${n}`);
  return [`## ${section.item}. ${section.title}  (${section.seconds.toFixed(0)} s)`, textTable(rows), ...notes].join('\n');
}
