// compressjs ships no types; the range uses only its bzip2 compressor.
declare module 'compressjs' {
  const compressjs: { Bzip2: { compressFile(input: Uint8Array | number[]): ArrayLike<number> } };
  export default compressjs;
}
declare module 'seek-bzip' {
  const Bunzip: { decode(input: Uint8Array): Buffer };
  export default Bunzip;
}
