import { render, screen } from '@testing-library/react';
import { useEffect, version } from 'react';
import { version as domVersion } from 'react-dom';
import { expect, test } from 'vitest';

function EffectCounter({ onEffect }: { onEffect: () => void }) {
  useEffect(onEffect, [onEffect]);
  return <p>React {version}</p>;
}

test('runs on the React major this project is for, with a matching react-dom', () => {
  const expected = process.env.EXPECTED_REACT_MAJOR;
  expect(expected).toMatch(/^(18|19)$/);
  expect(version.split('.')[0]).toBe(expected);
  expect(domVersion).toBe(version);
});

test('renders in StrictMode by default, so effects run twice on mount', () => {
  let effects = 0;
  const onEffect = () => {
    effects += 1;
  };
  render(<EffectCounter onEffect={onEffect} />);
  expect(screen.getByText(`React ${version}`)).toBeDefined();
  expect(effects).toBe(2);
});
