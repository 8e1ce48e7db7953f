import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The repository explains itself: every file or folder its documents name exists, every link between them lands on a
 * file and, when it names a section, on a heading of that file; and every `docs/….md#section` a comment of the code
 * cites is a heading of that document. A moved file or a renamed section fails here instead of leaving a reader
 * with a path that leads nowhere.
 */
const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const markdownIn = (folder: string) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(folder, name));
const documents = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/adr')];

const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** A heading's anchor as GitHub makes it: its text, lower-cased, without punctuation, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown file's headings, a repeated heading's with GitHub's `-1`, `-2`… */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = read(file).replace(/^```[^]*?^```/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading ?? '');
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

/** A path written from the repository's root: a top-level folder of the project, then more. */
const repositoryPath =
  /(?<![\w/.@}$-])((?:lib|functions|infra|tools|app|test|docs)\/[A-Za-z0-9_./-]*[A-Za-z0-9_/])(?![\w{<*…-])/g;
/** What an import names without its extension is the .ts or .tsx file. */
const existsAsNamed = (path: string) => ['', '.ts', '.tsx'].some((ending) => existsSync(join(root, path + ending)));

describe.each(documents)('%s', (document) => {
  const text = read(document);

  test('names only files and folders that exist', () => {
    const named = [...text.matchAll(repositoryPath)].map(([, path]) => (path ?? '').replace(/\.$/, ''));
    expect(named.filter((path) => !existsAsNamed(path))).toEqual([]);
  });

  test('links only to files that exist, and to headings they have', () => {
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target ?? '');
    const broken = links
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => {
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? document : relative(root, join(root, dirname(document), path));
        if (!existsSync(join(root, file))) return true;
        return anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor);
      });
    expect(broken).toEqual([]);
  });
});

test('every docs/….md#section a comment of the code cites is a heading of that document', () => {
  const sourceFiles = (folder: string): string[] =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? entry.name === 'node_modules'
          ? []
          : sourceFiles(join(folder, entry.name))
        : /\.(ts|tsx)$/.test(entry.name)
          ? [join(folder, entry.name)]
          : [],
    );
  const files = ['lib', 'functions', 'infra', 'tools', 'app/src', 'test'].flatMap(sourceFiles);
  const unknown = files.flatMap((file) =>
    // `docs/api.md#members, #undo`: the anchors after the first one are of the same document.
    [...read(file).matchAll(/docs\/([\w/-]+\.md)((?:#[\w-]+)(?:, #[\w-]+)*)/g)].flatMap(([, document, cited]) => {
      const anchors = anchorsOf(join('docs', document ?? ''));
      return [...(cited ?? '').matchAll(/#([\w-]+)/g)]
        .map(([, anchor]) => anchor ?? '')
        .filter((anchor) => !anchors.has(anchor))
        .map((anchor) => `${file}: docs/${document}#${anchor}`);
    }),
  );
  expect(unknown).toEqual([]);
});
