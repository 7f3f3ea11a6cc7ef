// The `ioctl()` requests that say nothing of a device: those of terminals (`TC…`, `TIOC…`), descriptor
// flags (`FIO…`), sockets (`SIOC…`), and the Linux virtual console's own (`KD…` modes and LEDs, `KIOC…`
// sound, `VT_…` switching, `GIO_…`/`PIO_…` fonts, maps and palettes). A virtual console is a terminal:
// a boot splash or a console tool sets its mode and palette by these requests and then writes its text
// and escape sequences to it as a byte stream, where two writes may go as one.

/** A request of the families above, spelled as the call spells it (parentheses allowed). */
const TERMINAL_REQUEST = /^\(?\s*(?:T[C]|TIOC|FIO|SIOC|KD|KIOC|VT_|GIO_|PIO_)[A-Z0-9_]*\s*\)?$/;

/** True when `request`, an `ioctl()` request's text, is a terminal's, a socket's or a flag's (see above). */
export function terminalRequest(request: string): boolean {
  return TERMINAL_REQUEST.test(request.trim());
}
