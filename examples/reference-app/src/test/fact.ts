import { screen } from '@testing-library/react';

/** The value beside a term of a description list (the facts a page shows). */
export const fact = (term: string) => screen.getByText(term).nextElementSibling?.textContent;
