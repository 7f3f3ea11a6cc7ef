// The JSON encoder of the messages the server writes to a stream (stdio): the same text as
// `JSON.stringify`, but each diagnostic of a `textDocument/publishDiagnostics` keeps its own JSON
// from one message to the next. The diagnostics of an open document are kept from one analysis to
// the next (keptDiagnostics.ts), so after an edit only the new ones are serialised: stringifying a
// 4,000-line file's 333 diagnostics (a quarter of a megabyte) again at every keystroke was a visible
// part of its edit-to-diagnostics time. A diagnostic must not be changed once sent (none is: the
// trace's measurements make new objects).
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from 'vscode-languageserver/node';

/** Each diagnostic's JSON, by the object (which is never changed once serialised). */
const texts = new WeakMap<object, string>();

/** What `JSON.stringify(msg)` gives. */
export function messageJson(msg: Message): string {
  const params = (msg as { method?: unknown; params?: unknown }).params as
    { diagnostics?: unknown } | undefined;
  const diagnostics = params?.diagnostics;
  if (
    (msg as { method?: unknown }).method !== 'textDocument/publishDiagnostics' ||
    !Array.isArray(diagnostics) ||
    diagnostics.length === 0
  )
    return JSON.stringify(msg);
  // The message with no diagnostics, and theirs put in: the key stands once outside the strings
  // (a quote inside a JSON string is escaped), in the parameters, which have no other object.
  const empty = JSON.stringify({ ...msg, params: { ...params, diagnostics: [] } });
  const key = '"diagnostics":[';
  const at = empty.lastIndexOf(`${key}]`);
  if (at < 0) return JSON.stringify(msg);
  const parts = diagnostics.map((d: unknown) => {
    if (typeof d !== 'object' || d === null) return JSON.stringify(d) ?? 'null';
    let text = texts.get(d);
    if (text === undefined) texts.set(d, (text = JSON.stringify(d)));
    return text;
  });
  return empty.slice(0, at + key.length) + parts.join(',') + empty.slice(at + key.length);
}

/** The `application/json` encoder with {@link messageJson}: for a StreamMessageWriter's options. */
export const DIAGNOSTICS_JSON: ContentTypeEncoder = {
  name: 'application/json',
  encode(msg: Message, options: ContentTypeEncoderOptions): Promise<Uint8Array> {
    try {
      return Promise.resolve(Buffer.from(messageJson(msg), options.charset));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  },
};
