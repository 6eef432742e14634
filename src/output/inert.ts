// What toolbox prints for people is inert: text from a contract, a tool, a server or a file name can
// carry terminal control sequences (OSC 52 writes the clipboard, OSC 8 hides a link behind other
// text, OSC 0/2 set the window title, CSI moves the cursor or clears the screen, C1 controls do the
// same in 8-bit form, bidi overrides reorder what is shown). Every write of every command passes
// through `inertSink` (src/main.ts wraps the IO once, so no command can forget); only toolbox's own
// colours survive, and only when colour is on. JSON output is exact instead: `jsonText` escapes
// the characters the sink would remove, so the parsed value is the same and the sink leaves it as is.
import type { TextSink } from '../io.js';
import { inert } from '../util/inert.js';

export { inert, jsonText } from '../util/inert.js';

/** A sink whose writes are made inert; `raw` is the sink underneath (for a spinner or a prompt, fed inert text). */
export interface InertSink extends TextSink {
  raw: TextSink;
}

/** Wrap `sink` so that everything written through it is inert (toolbox's colours kept when `colour`). */
export function inertSink(sink: TextSink, colour: boolean): InertSink {
  return {
    write: (chunk: string) => sink.write(inert(String(chunk), { colour })),
    get isTTY() {
      return sink.isTTY;
    },
    get columns() {
      return sink.columns;
    },
    raw: sink,
  };
}

/** The sink underneath an inert one (or the sink itself). */
export function rawSink(sink: TextSink): TextSink {
  return (sink as Partial<InertSink>).raw ?? sink;
}
