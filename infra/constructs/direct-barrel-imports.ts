/**
 * Named imports of the SDK's index modules ("barrels": `@smithy/core/protocols`, `@aws-sdk/core/protocols`, ...)
 * rewritten to import each name from the file that defines it, for the builds with lazy chunks (handler-bundles.ts).
 *
 * Why: esbuild's code splitting places a file by the entry points that reach it through any import of the files they
 * reach, not only the imports tree shaking keeps. The DynamoDB client imports `AwsJson1_0Protocol` from
 * `@aws-sdk/core/protocols`, whose index also re-exports the XML protocol; in the export jobs worker the S3 client
 * (a lazy chunk) uses that one, so the XML protocol, `@aws-sdk/xml-builder` and the S3 parts of `@smithy/core` landed in
 * a chunk the entry loads at cold start (about 40 KiB), though nothing on the entry's side calls them. Importing the
 * defining files directly, the index is reached only by the code that imports names it defines itself. A build without
 * splitting tree-shakes the same code away either way and is not rewritten.
 *
 * The same modules are imported (the same files, by absolute path), so nothing runs differently: these packages are
 * free of side effects (`sideEffects: false`, or `@aws-sdk/core`'s list, which names no index), so an index that no
 * longer runs did nothing but re-export. A name the rewriting maps wrongly fails the build ("No matching export"),
 * never a bundle.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PluginBuild } from 'esbuild';

/** Files rewritten: the SDK's ES modules, where every import statement is on one line. */
export const SDK_ES_FILE = /node_modules[\\/]@(?:aws-sdk|smithy)[\\/][^\\/]+[\\/]dist-es[\\/].*\.js$/;

/** `export { a, b as c } from "./x";` in an index module. */
const RE_EXPORT = /^export \{([^}]*)\} from "([^"]+)";?$/gm;
/** `export { a, b as c };`: names an index imported, exported again. */
const LOCAL_EXPORT = /^export \{([^}]*)\};?$/gm;
/** `import { a, b as c } from "spec";` (one line; a default or namespace import is left as it is). */
const NAMED_IMPORT = /^import \{([^}]*)\} from "([^"]+)";?$/gm;

/** `a`, `b as c` → [exported or imported name, local name]. */
const specifiers = (list: string): [string, string][] =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name = '', local = name] = s.split(/\s+as\s+/);
      return [name, local];
    });

/** Where a name re-exported by an index comes from: its defining file and its name there. */
interface Origin {
  file: string;
  name: string;
}

/**
 * A rewriter for one build: `rewrite(source, path)` returns the source with each named import of an index module
 * split into imports of the defining files (by absolute path), the index itself imported only for the names it
 * defines. Index modules are read and resolved through the build (its aliases and conditions), once each.
 */
export function directBarrelImports(build: Pick<PluginBuild, 'resolve'>): (source: string, path: string) => Promise<string> {
  const reExports = new Map<string, Promise<Map<string, { spec: string; name: string }>>>();
  const resolved = new Map<string, Promise<string | null>>();

  const resolve = (spec: string, fromDir: string): Promise<string | null> => {
    const key = `${fromDir}\0${spec}`;
    let hit = resolved.get(key);
    if (!hit) {
      hit = build
        .resolve(spec, { resolveDir: fromDir, kind: 'import-statement' })
        .then((r) => (r.errors.length === 0 && !r.external && r.path ? r.path : null));
      resolved.set(key, hit);
    }
    return hit;
  };

  /** The names a module re-exports from others (`export { ... } from`, or imported then exported), none for any other module. */
  const reExportsOf = (file: string): Promise<Map<string, { spec: string; name: string }>> => {
    let hit = reExports.get(file);
    if (!hit) {
      hit = readFile(file, 'utf8').then(
        (text) => {
          const names = new Map<string, { spec: string; name: string }>();
          for (const m of text.matchAll(RE_EXPORT)) for (const [name, exported] of specifiers(m[1] ?? '')) names.set(exported, { spec: m[2] ?? '', name });
          const imported = new Map<string, { spec: string; name: string }>();
          for (const m of text.matchAll(NAMED_IMPORT)) for (const [name, local] of specifiers(m[1] ?? '')) imported.set(local, { spec: m[2] ?? '', name });
          for (const m of text.matchAll(LOCAL_EXPORT))
            for (const [local, exported] of specifiers(m[1] ?? '')) {
              const via = imported.get(local);
              if (via) names.set(exported, via);
            }
          return names;
        },
        () => new Map(),
      );
      reExports.set(file, hit);
    }
    return hit;
  };

  /** The file that defines `name` as `file` exports it, following re-exports (null: `file` defines it, or cannot tell). */
  const originOf = async (file: string, name: string, depth = 0): Promise<Origin | null> => {
    if (depth > 10 || !SDK_ES_FILE.test(file)) return null;
    const via = (await reExportsOf(file)).get(name);
    if (!via) return null;
    const target = await resolve(via.spec, dirname(file));
    if (!target) return null;
    return (await originOf(target, via.name, depth + 1)) ?? { file: target, name: via.name };
  };

  return async (source, path) => {
    const replacements: { from: number; to: number; text: string }[] = [];
    for (const m of source.matchAll(NAMED_IMPORT)) {
      const spec = m[2] ?? '';
      const barrel = await resolve(spec, dirname(path));
      if (!barrel) continue;
      const kept: string[] = [];
      const direct = new Map<string, string[]>();
      for (const [name, local] of specifiers(m[1] ?? '')) {
        const origin = await originOf(barrel, name);
        const binding = name === local ? name : `${name} as ${local}`;
        if (!origin) {
          kept.push(binding);
          continue;
        }
        const list = direct.get(origin.file) ?? [];
        list.push(origin.name === local ? local : `${origin.name} as ${local}`);
        direct.set(origin.file, list);
      }
      if (direct.size === 0) continue;
      const lines = [...direct].map(([file, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(file)};`);
      if (kept.length > 0) lines.unshift(`import { ${kept.join(', ')} } from ${JSON.stringify(spec)};`);
      replacements.push({ from: m.index, to: m.index + m[0].length, text: lines.join(' ') });
    }
    let out = source;
    for (const r of replacements.reverse()) out = out.slice(0, r.from) + r.text + out.slice(r.to);
    return out;
  };
}
