#!/usr/bin/env node
/**
 * The `writev-upload-pack` command: an upload-pack server git can clone and fetch from,
 *   git clone --no-local --upload-pack='node /path/to/writev-upload-pack.js' <repo> <dest>
 * (`--no-local` or a `file://` URL, since git copies local paths without any upload-pack).
 *
 * Imports only what serving needs, so the bundled file starts fast. Writes to stderr through the
 * fd-based stack too: `process.stderr` could make a terminal git shares non-blocking.
 */
import { runUploadPackCommand } from '../uploadPack/command';

void runUploadPackCommand(process.argv.slice(2), process.env).then((status) => process.exit(status));
