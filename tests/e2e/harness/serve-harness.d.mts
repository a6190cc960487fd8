/** Build the harness into a fresh folder (returned). */
export declare function buildHarness(): Promise<string>;
/** Serve a built harness folder, then public/, on a free 127.0.0.1 port; close() also removes the folder. */
export declare function serveHarness(outDir: string): Promise<{ url: string; close: () => Promise<void> }>;
export declare const repoRoot: string;
