/**
 * A request the server cannot serve, or a repository it cannot read. The message is what the client
 * sees: before the pack it travels as an `ERR` pkt-line, during the pack on sideband 3. The server
 * then exits with status 128, as Git's upload-pack does after `die()`.
 */
export class UploadPackError extends Error {
  /** Always `'ERR_UPLOAD_PACK'`. */
  readonly code = 'ERR_UPLOAD_PACK';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UploadPackError';
  }
}
