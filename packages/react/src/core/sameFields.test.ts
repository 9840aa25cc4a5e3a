import { describe, expect, it } from 'vitest';
import { sameFields } from './sameFields';

describe('sameFields', () => {
  const error = new Error('x');

  it('is true for records whose every field is the same value', () => {
    expect(sameFields({ status: 'error', error }, { status: 'error', error })).toBe(true);
  });

  it('is false when one field differs, or holds an equal but other object', () => {
    expect(sameFields({ status: 'error', error }, { status: 'loading', error })).toBe(false);
    expect(sameFields({ status: 'error', error }, { status: 'error', error: new Error('x') })).toBe(
      false,
    );
  });
});
