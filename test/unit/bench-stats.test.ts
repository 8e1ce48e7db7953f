import { median } from '../../tools/bench/operations';

describe('bench statistics', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([30, 10, 20])).toBe(20);
  });

  it('takes the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('refuses an empty list rather than answering NaN', () => {
    expect(() => median([])).toThrow('median of no values');
  });
});
