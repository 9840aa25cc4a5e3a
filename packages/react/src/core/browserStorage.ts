/** The browser's session or local storage, or null where there is none (server, sandboxed frame). */
export function browserStorage(kind: 'sessionStorage' | 'localStorage'): Storage | null {
  try {
    return (globalThis as unknown as Record<string, Storage | undefined>)[kind] ?? null;
  } catch {
    return null;
  }
}
