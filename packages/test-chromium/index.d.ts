/** Launch options for the system's Chromium; throws, saying how to install one, when it is missing. */
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };
