// How the project's launchers (scripts/project-node.mjs, scripts/run-site.mjs) say that a process
// they started has ended badly: what ended, why, and what to do, so that no failure is a silent exit.
// Plain JavaScript that any Node.js from 18 on runs.
import os from "node:os";

const HINTS = {
  SIGSEGV: "a crash in native code, most often a native module (better-sqlite3) loaded by a Node.js it does not support",
  SIGBUS: "a crash in native code, most often a native module (better-sqlite3) loaded by a Node.js it does not support",
  SIGILL: "a crash in native code, most often a native module (better-sqlite3) loaded by a Node.js it does not support",
  SIGABRT: "Node.js aborted: its own message above says why (a fatal error, or out of memory)",
  SIGKILL: "killed from outside, most often by the kernel when the machine ran out of memory (`dmesg` says)",
};

/**
 * One message for a child's end, or null when it ended well. `name` says what it was; a signal
 * gets its likely cause and the Node.js it ran on, an exit code points at the child's own output.
 */
export function describeEnd(name, code, signal) {
  if (signal) {
    const why = HINTS[signal] ?? "stopped by a signal from outside";
    const number = os.constants.signals[signal];
    return (
      `${name} was killed by ${signal}${number ? ` (exit ${128 + number})` : ""}: ${why}.\n` +
      `It ran on Node.js ${process.version}; this project runs on the Node.js in .node-version: start it with ` +
      "`npm run <script>` (which switches to that Node), and after changing Node run `npm install` again."
    );
  }
  if (code) return `${name} exited with code ${code}; its own output above says why.`;
  return null;
}

/** The exit code a launcher passes on for a child's end (a shell's convention for a signal). */
export function exitCodeOf(code, signal) {
  if (signal) return 128 + (os.constants.signals[signal] ?? 0);
  return code ?? 0;
}
