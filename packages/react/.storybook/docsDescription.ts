/**
 * A component's or prop's TSDoc as Markdown for its Docs page: `{@link Name}` as code, and each
 * `@example` as a TSX code block. Rendered raw, Markdown shows the tags and drops the JSX of an
 * example as unknown HTML (`element: <AuthCallback />` read `element: }`).
 */
export function docsDescription(tsdoc: string): string {
  const [text = '', ...examples] = tsdoc.split(/^@example[ \t]*$/m);
  const markdown = (part: string) => part.replace(/\{@link\s+([^}\s|]+)[^}]*\}/g, '`$1`').trim();
  return [
    markdown(text),
    ...examples.map((example) => `Example:\n\n\`\`\`tsx\n${example.trim()}\n\`\`\``),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
