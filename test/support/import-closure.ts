import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = new URL('../..', import.meta.url).pathname;

/**
 * What a reader opens to follow one function: every project file its entry reaches through relative imports, type
 * imports, re-exports and `import()` of a literal included, paths from the repository's root.
 */
export function closureOf(entry: string): string[] {
  const seen = new Set<string>();
  const importPattern =
    /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[\s\S]*?\s+from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (!specifier.startsWith('.')) continue;
      const base = path.join(path.dirname(file), specifier.replace(/\.js$/, ''));
      const found = [`${base}.ts`, `${base}.mts`, `${base}/index.ts`, base].find((candidate) => {
        const full = path.join(root, candidate);
        return existsSync(full) && statSync(full).isFile();
      });
      if (found !== undefined) visit(found);
    }
  };
  visit(entry);
  return [...seen].sort();
}
