import type { Preview } from '@storybook/react-vite';
import { docsDescription } from './docsDescription';
import './preview.css';

type Documented = { __docgenInfo?: { description?: string } };

const preview: Preview = {
  tags: ['autodocs'],
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
    docs: {
      extractComponentDescription: (component: Documented | undefined) =>
        docsDescription(component?.__docgenInfo?.description ?? ''),
    },
  },
  // Props' TSDoc too (`{@link ...}` in a prop's description).
  argTypesEnhancers: [
    ({ argTypes }) =>
      Object.fromEntries(
        Object.entries(argTypes).map(([name, argType]) => [
          name,
          argType.description === undefined
            ? argType
            : { ...argType, description: docsDescription(argType.description) },
        ]),
      ),
  ],
};

export default preview;
