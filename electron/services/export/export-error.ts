/** The one error of export reading: what is wrong, and the file at fault. */
/** An export that cannot be read as complete: a missing, truncated or corrupted file, a wrong manifest, another format. */
export class ExportError extends Error {
  constructor(
    message: string,
    /** The file at fault, when one is. */
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ExportError';
  }
}
