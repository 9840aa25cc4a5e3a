/** Launch options for the system's Chromium; throws, saying how to install one, when it is missing. */
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };

/** The page methods the accessibility check uses (Playwright's Page has them). */
interface PageLike {
  evaluate<R, A>(fn: string | ((arg: A) => R | Promise<R>), arg?: A): Promise<R>;
}

/** The WCAG 2.2 A/AA violations axe-core finds in `context` (default `body`), as readable lines. */
export declare function axeViolations(page: PageLike, context?: string): Promise<string[]>;
