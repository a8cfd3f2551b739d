/**
 * Renders a results file of `npm run bench -- --out FILE` as the markdown tables of
 * docs/benchmarks.md: `npx tsx test/bench/markdown.ts FILE`.
 */
import { readFileSync } from 'node:fs';
import type { Section } from './report.js';
import { ratio } from './stats.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx test/bench/markdown.ts results.json');
  process.exit(2);
}
const results = JSON.parse(readFileSync(file, 'utf8')) as {
  mode: string;
  startedAt: string;
  seconds: number;
  machine: Record<string, unknown>;
  summary: string;
  sections: Section[];
};
const cell = (s: string): string => s.replace(/\|/g, '\\|');
const out: string[] = [`Run: ${results.mode}, ${results.startedAt}, ${results.seconds.toFixed(0)} s — ${results.summary}`, ''];
for (const section of results.sections) {
  out.push(`#### ${section.item}. ${section.title}`, '', '| check | measured | floor | vs floor | target | bound | result |', '|---|---|---|---|---|---|---|');
  for (const c of section.checks) {
    out.push(
      `| ${cell(c.name)} | ${c.show.measured} | ${c.show.floor} | ${c.floor ? ratio(c.measured / c.floor) : ''} | ${cell(c.target)} | ${c.show.bound} | ${c.pass === null ? '' : c.pass ? 'pass' : '**FAIL**'} |`,
    );
  }
  if (section.notes.length > 0) out.push('', ...section.notes.map((n) => `* ${cell(n)}`));
  out.push('');
}
process.stdout.write(`${out.join('\n')}\n`);
