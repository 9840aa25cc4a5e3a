import { describe, expect, test } from 'vitest';
import { composeEventHandlers } from './composeEventHandlers';

function event() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

describe('composeEventHandlers', () => {
  test("the app's handler runs first, then ours", () => {
    const calls: string[] = [];
    composeEventHandlers(
      () => calls.push('theirs'),
      () => calls.push('ours'),
    )(event());
    expect(calls).toEqual(['theirs', 'ours']);
  });

  test("preventDefault() in the app's handler skips ours", () => {
    const calls: string[] = [];
    composeEventHandlers(
      (e: ReturnType<typeof event>) => e.preventDefault(),
      () => calls.push('ours'),
    )(event());
    expect(calls).toEqual([]);
  });

  test('without an app handler, ours runs', () => {
    const calls: string[] = [];
    composeEventHandlers(undefined, () => calls.push('ours'))(event());
    expect(calls).toEqual(['ours']);
  });
});
