/** The harness built for the current sources (once, shared by every caller; its folder is returned). */
export declare function buildHarness(): Promise<string>;
/** The hash of what the harness build reads (the build's folder is named by it). */
export declare function harnessKey(): string;
/** Serve a built harness folder, then public/, on a free 127.0.0.1 port; close() stops the server (the build stays). */
export declare function serveHarness(outDir: string): Promise<{ url: string; close: () => Promise<void> }>;
export declare const repoRoot: string;
