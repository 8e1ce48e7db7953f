/** A grouped bar chart as a standalone SVG file: no script, no external font or style. */

export type Series = { name: string; color: string };
export type BarGroup = { label: string; values: readonly number[] };
export type BarChart = { title: string; unit: string; series: readonly Series[]; groups: readonly BarGroup[] };

const layout = { width: 960, height: 460, left: 64, right: 24, top: 72, bottom: 72, barGap: 3, groupGap: 28 };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A round step (1, 2, 2.5 or 5 × 10^n) that divides the axis up to `max` in at most five parts. */
export function tickStep(max: number): number {
  if (!(max > 0)) return 1;
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 2.5, 5, 10].find((candidate) => candidate * magnitude >= rough) ?? 10) * magnitude;
}

export function barChart(chart: BarChart): string {
  const { width, height, left, right, top, bottom, barGap, groupGap } = layout;
  for (const group of chart.groups) {
    if (
      group.values.length !== chart.series.length ||
      group.values.some((value) => !Number.isFinite(value) || value < 0)
    ) {
      throw new Error(`bar chart: group ${group.label} needs one finite, non-negative value per series`);
    }
  }
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const highest = Math.max(0, ...chart.groups.flatMap((group) => group.values));
  const step = tickStep(highest);
  const axisTop = Math.max(step, Math.ceil(highest / step) * step);
  const groupWidth = plotWidth / Math.max(chart.groups.length, 1);
  const barWidth = (groupWidth - groupGap) / Math.max(chart.series.length, 1) - barGap;
  const y = (value: number) => top + plotHeight - (value / axisTop) * plotHeight;
  const number = (value: number) => (Math.round(value * 10) / 10).toString();

  const ticks = Array.from({ length: Math.round(axisTop / step) + 1 }, (_, index) => {
    const value = index * step;
    return (
      `<line x1="${left}" x2="${width - right}" y1="${number(y(value))}" y2="${number(y(value))}" stroke="#ddd"/>` +
      `<text x="${left - 8}" y="${number(y(value) + 4)}" text-anchor="end">${number(value)}</text>`
    );
  });
  const bars = chart.groups.flatMap((group, groupIndex) => {
    const groupLeft = left + groupIndex * groupWidth + groupGap / 2;
    const label =
      `<text x="${number(groupLeft + (groupWidth - groupGap) / 2)}" y="${height - bottom + 20}" text-anchor="middle">` +
      `${escapeXml(group.label)}</text>`;
    return [
      label,
      ...group.values.map((value, seriesIndex) => {
        const x = groupLeft + seriesIndex * (barWidth + barGap);
        const color = chart.series[seriesIndex]?.color ?? '#888';
        return (
          `<rect x="${number(x)}" y="${number(y(value))}" width="${number(barWidth)}" height="${number(y(0) - y(value))}" fill="${escapeXml(color)}"/>` +
          `<text x="${number(x + barWidth / 2)}" y="${number(y(value) - 4)}" text-anchor="middle" font-size="10">${number(value)}</text>`
        );
      }),
    ];
  });
  const legend = chart.series.map((series, index) => {
    const x = left + index * 190;
    return (
      `<rect x="${x}" y="36" width="12" height="12" fill="${escapeXml(series.color)}"/>` +
      `<text x="${x + 18}" y="46">${escapeXml(series.name)}</text>`
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="bold">${escapeXml(chart.title)}</text>`,
    ...legend,
    ...ticks,
    `<text x="16" y="${top + plotHeight / 2}" transform="rotate(-90 16 ${top + plotHeight / 2})" text-anchor="middle">${escapeXml(chart.unit)}</text>`,
    ...bars,
    `<line x1="${left}" x2="${width - right}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`,
    '</svg>',
    '',
  ].join('\n');
}
