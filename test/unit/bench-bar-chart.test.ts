import { barChart, escapeXml, tickStep } from '../../tools/bench/report';

const series = [
  ['p50', '#9ecae1'],
  ['p99', '#3182bd'],
];
const groups = [
  { label: 'Lead · 1 conn.', values: [20, 60] },
  { label: 'Note · 1 conn.', values: [5, 240] },
];
const draw = (drawn = groups) => barChart('Latency <p50 & p99>', 'ms', series, drawn);

describe('SVG bar chart', () => {
  it('is a standalone SVG document with one bar per value and one legend entry per series', () => {
    const svg = draw();
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const bars = svg.match(/<rect [^>]*fill="#(9ecae1|3182bd)"/g) ?? [];
    expect(bars).toHaveLength(4 + 2);
    expect(svg).not.toMatch(/NaN|undefined|<script/);
  });

  it('draws bars in proportion to their values on a round axis', () => {
    const svg = draw();
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="([\d.]+)"/g)].filter(
      (match) => match[1] !== '12',
    );
    const heights = bars.map((match) => Number(match[2]));
    expect(heights).toHaveLength(4);
    const [lead50, lead99, , note99] = heights as [number, number, number, number];
    expect(lead99 / lead50).toBeCloseTo(3, 1);
    expect(note99 / lead50).toBeCloseTo(12, 0);
    expect(svg).toContain('>250</text>');
  });

  it('escapes every text it writes', () => {
    const svg = draw();
    expect(svg).toContain('Latency &#60;p50 &#38; p99&#62;');
    expect(escapeXml(`"a" & 'b'`)).toBe('&#34;a&#34; &#38; &#39;b&#39;');
  });

  it('picks ticks of 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(tickStep(240)).toBe(50);
    expect(tickStep(1083)).toBe(250);
    expect(tickStep(9)).toBe(2);
    expect(tickStep(0)).toBe(1);
  });

  it('refuses a value it cannot draw', () => {
    expect(() => draw([{ label: 'x', values: [Number.NaN, 1] }])).toThrow('finite');
    expect(() => draw([{ label: 'x', values: [1] }])).toThrow('one finite');
  });
});
