import type { LoadRun } from '../../tools/bench/load';
import { latencyChart } from '../../tools/bench/report';
import { bulkProspectCount } from '../../tools/bench/workspace';

const run = (scenario: LoadRun['scenario'], connections: number, p50Ms: number, p99Ms: number) =>
  ({ scenario, connections, p50Ms, p99Ms }) as LoadRun;
const empty = [run('lead', 1, 12.5, 30), run('note', 50, 4.25, 380)];
const bulk = [run('lead', 1, 13, 36.5), run('note', 50, 5, 456)];
const grown = `${bulkProspectCount / 1000}k prospects`;

/** Each bar's accessible label, `field: value; …`, as an object. */
const barsOf = (svg: string) =>
  [...svg.matchAll(/<(?:path|rect) [^>]*aria-roledescription="bar"[^>]*>/g)].map(([bar]) => {
    const label = /aria-label="([^"]*)"/.exec(bar)?.[1] ?? '';
    return Object.fromEntries(label.split('; ').map((pair) => pair.split(': ')));
  });
const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(([, text]) => text);

describe('latency chart', () => {
  it('is a standalone SVG document: no script, no linked file', async () => {
    const svg = await latencyChart({ load: { empty, bulk } });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/<script|<image|<foreignObject|href=|NaN|undefined/);
  });

  it('draws one bar per run and series, each with its value', async () => {
    const bars = barsOf(await latencyChart({ load: { empty, bulk } }));
    const expected = [
      ['Lead webhook · 1 conn.', [12.5, 30, 13, 36.5]],
      ['POST note · 50 conn.', [4.25, 380, 5, 456]],
    ] as const;
    const series = ['empty workspace', grown].flatMap((of) => [`p50, ${of}`, `p99, ${of}`]);
    const wanted = expected.flatMap(([label, values]) =>
      values.map((value, index) => ({ run: label, series: series[index], milliseconds: String(value) })),
    );
    expect(bars).toHaveLength(8);
    expect(bars).toEqual(expect.arrayContaining(wanted));
  });

  it('names the series, the runs and the unit', async () => {
    const texts = textsOf(await latencyChart({ load: { empty, bulk } }));
    expect(texts).toEqual(expect.arrayContaining(['p50, empty workspace', 'p99, empty workspace']));
    expect(texts).toEqual(expect.arrayContaining([`p50, ${grown}`, `p99, ${grown}`]));
    expect(texts).toEqual(expect.arrayContaining(['Lead webhook · 1 conn.', 'POST note · 50 conn.', 'milliseconds']));
  });

  it('refuses workspaces whose runs differ or come in another order', async () => {
    await expect(latencyChart({ load: { empty, bulk: [...bulk].reverse() } })).rejects.toThrow('measured differently');
    await expect(latencyChart({ load: { empty, bulk: bulk.slice(0, 1) } })).rejects.toThrow('measured differently');
  });
});
