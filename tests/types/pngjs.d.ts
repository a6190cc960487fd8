/**
 * pngjs (a devDependency, for tests that make or read real PNG files) ships no type declarations: the part the tests use.
 */
declare module 'pngjs' {
  export interface PNGImage {
    width: number;
    height: number;
    data: Buffer;
  }
  export class PNG implements PNGImage {
    constructor(options: { width: number; height: number });
    width: number;
    height: number;
    data: Buffer;
    static sync: {
      read(buffer: Buffer): PNGImage;
      write(png: PNGImage): Buffer;
    };
  }
}
