/** The slice of omggif's GIF reader the animation tests use (the package ships no types). */
declare module "omggif" {
  export class GifReader {
    constructor(bytes: Uint8Array);
    width: number;
    height: number;
    numFrames(): number;
    loopCount(): number | null;
    frameInfo(index: number): { delay: number; width: number; height: number };
    decodeAndBlitFrameRGBA(index: number, pixels: Uint8Array): void;
  }
}
