import { costPerMillion } from '../../tools/bench/figures';

describe('cost per million calls', () => {
  // docs/deploy.md's worked example for GET /pipelines: $5.10 for compute, API and table.
  const listPipelines = costPerMillion({
    invocations: 2,
    warmSeconds: 0.04,
    coldStartSeconds: [0.4, 0.4],
    readUnits: 2,
    writeUnits: 1,
  });

  it('reproduces the worked example of docs/deploy.md', () => {
    expect(listPipelines.lines.map((line) => [line.item, Number(line.dollars.toFixed(2))])).toEqual([
      ['API Gateway', 3.5],
      ['Lambda requests', 0.4],
      ['Lambda duration, warm', 0.27],
      ['Lambda duration, init', 0.05],
      ['DynamoDB reads', 0.25],
      ['DynamoDB writes', 0.63],
    ]);
    expect(listPipelines.total).toBeCloseTo(5.1, 1);
  });

  it('shows the arithmetic with the prices as published', () => {
    const arithmetic = listPipelines.lines.map((line) => line.arithmetic);
    expect(arithmetic).toContain('1,000,000 × $3.50 / 1,000,000');
    expect(arithmetic).toContain('2,000,000 × $0.20 / 1,000,000');
    expect(arithmetic).toContain('1,000,000 × 0.040 s × 0.5 GB = 20,000 GB-s × $0.0000133334');
    expect(arithmetic).toContain('1,000,000 × 1 % × (0.400 s + 0.400 s) × 0.5 GB = 4,000 GB-s × $0.0000133334');
    expect(arithmetic).toContain('1,000,000 × 1 WRU × $0.625 / 1,000,000');
  });

  it('computes with the times it shows, to the millisecond', () => {
    const rounded = costPerMillion({
      invocations: 2,
      warmSeconds: 0.01787,
      coldStartSeconds: [],
      readUnits: 0,
      writeUnits: 0,
    });
    expect(rounded.lines[2]?.arithmetic).toBe('1,000,000 × 0.018 s × 0.5 GB = 9,000 GB-s × $0.0000133334');
  });

  it('bills half read units as they come', () => {
    const halves = costPerMillion({
      invocations: 2,
      warmSeconds: 0,
      coldStartSeconds: [],
      readUnits: 2.5,
      writeUnits: 0,
    });
    expect(halves.lines.find((line) => line.item === 'DynamoDB reads')?.dollars).toBeCloseTo(0.3125, 6);
  });
});
