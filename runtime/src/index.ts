/**
 * `@writev/runtime`: gathered writes for Node, layered as in Git. Each layer adds one guarantee:
 * `xwritev` restarts, `writevInFull` loops until every byte is out, `writevOrDie` turns failure
 * into a typed error with Git's wording.
 *
 * @packageDocumentation
 */
export { DEFAULT_IO_BUFFER_SIZE, IOV_MAX, LARGE_PACKET_MAX, MAX_IO_SIZE, SSIZE_MAX } from './constants';
export { describeErrno, isSystemError, systemError, type SystemError } from './errno';
export { BrokenPipeError, UnusableDescriptorError, WriteError, type WriteFailure } from './errors';
export { checkOutputDescriptor } from './outputDescriptor';
export { EXIT_BROKEN_PIPE, EXIT_FATAL, exitLikeGit, gitExit } from './exit';
export { compatWritev, type CompatLimits } from './compatWritev';
export { createAsyncSys, createSys, defaultAsyncSys, defaultSys, type NodeSysOptions } from './nodeSys';
export type { AsyncWriteOptions, WriteLimits, WriteOptions } from './options';
export { newCounts, type AsyncSys, type Sys, type Syscall, type SyscallCounts } from './syscall';
export { backoffDelay, type WaitStrategy } from './waitWritable';
export { xwrite, xwriteAsync, xwritev, xwritevAsync } from './xwrite';
export { writeInFull, writeInFullAsync, writevInFull, writevInFullAsync } from './inFull';
export { writeOrDie, writeOrDieAsync, writevOrDie, writevOrDieAsync } from './orDie';

// benchmarks: the harness the suites and the editor's panel share
export {
  formatBytes,
  formatCase,
  formatCaseMarkdown,
  formatMeasurement,
  formatSyscalls,
  formatTime,
  ratiosAgainst,
} from './bench/format';
export type { BenchEvent, BenchSize, CaseResult, Measurement, RunSample } from './bench/result';
export { median, percentile, speedRatio, summarize, type Ratio, type Summary } from './bench/stats';

// pkt-line and sideband
export { ProtocolError, RemoteError } from './protocol/errors';
export {
  Band,
  decodePktLines,
  delimPkt,
  encodePktLine,
  errPktLine,
  flushPkt,
  LARGE_PACKET_DATA_MAX,
  packetText,
  parsePktLength,
  PKT_HEADER_SIZE,
  responseEndPkt,
  SIDEBAND_HEADER_SIZE,
  SIDEBAND_PACKET_MAX,
  specialKind,
  writeHex4,
  type Packet,
} from './protocol/pktLine';
export { sendSideband, sendSidebandTwoWrites, writeSidebandHeader } from './protocol/sideband';
export { PktBatchWriter, type PktBatchWriterOptions } from './protocol/batchedWriter';
export { ChunkSource, FdSource, type ByteSource } from './protocol/byteSource';
export { PktReader } from './protocol/pktReader';
export { demultiplexSideband, type SidebandHandlers } from './protocol/demultiplexer';
export { UploadPackError } from './uploadPack/errors';
export { parseOptions, type UploadPackOptions } from './uploadPack/options';
export { UsageError } from './usageError';
export {
  cacheKey,
  DEFAULT_CACHE_MAX_BYTES,
  PackCache,
  PackFill,
  type CachedPack,
  type PackRequest,
} from './uploadPack/packCache';
export { PackChecksum } from './uploadPack/packChecksum';
export { PackSender, type Framing, type WriteMode } from './uploadPack/packSender';
export { serveUploadPack, type ServeReport, type ServerIo } from './uploadPack/server';
export { runUploadPackCommand, STANDARD_IO, type CommandIo } from './uploadPack/command';
export { advertisementLines, AGENT, SERVER_CAPABILITIES } from './uploadPack/advertisement';
export { negotiate, readWants, type WantRequest } from './uploadPack/negotiation';

// smart HTTP: the read-only handler, its path rules, and git http-backend behind the same server
export {
  ADVERTISEMENT_TYPE,
  createSmartHttpHandler,
  NO_CACHE_HEADERS,
  REQUEST_TYPE,
  RESULT_TYPE,
  type SmartHttpHandler,
  type SmartHttpOptions,
} from './http/smartHttp';
export { HTTP_ERROR_STATUS, HttpRequestError, type HttpErrorCode } from './http/errors';
export {
  parseRequestTarget,
  resolveRepository,
  type RequestTarget,
  type SmartHttpAction,
} from './http/repositoryPath';
export {
  GIT_UPLOAD_PACK,
  shellCommand,
  writevUploadPack,
  type UploadPackCommand,
} from './http/uploadPackCommand';
export { createGitHttpBackendHandler, type GitHttpBackendOptions } from './http/cgiBackend';

// object database and cat-blob
export { InvalidObjectIdError, ObjectCorruptError, RepositoryError } from './odb/errors';
export { hashObject, parseObjectId, type HashAlgorithm } from './odb/objectId';
export type { GitObject, ObjectHeader, ObjectType } from './odb/objectType';
export {
  DEFAULT_DELTA_BASE_CACHE_LIMIT,
  openRepository,
  Repository,
  type OpenRepositoryOptions,
} from './odb/repository';
export { catBlob, catBlobResponse } from './catBlob/response';
export {
  CatBlobResponder,
  DEFAULT_BATCH_BYTES,
  type ResponderOptions,
  type ResponseMode,
} from './catBlob/responder';
export { serveCatBlob, type ServeOptions, type ServeSummary } from './catBlob/serve';
export { LineInput, type LineInputOptions, type ReadFn } from './catBlob/lineInput';
export { CatBlobReader, type CatBlobAnswer, type CatBlobReaderOptions } from './catBlob/catBlobReader';
export { CatBlobCommandError, CatBlobProtocolError, NotABlobError } from './catBlob/errors';
