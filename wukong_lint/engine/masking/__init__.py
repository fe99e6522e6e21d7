"""Output safety in one place: whatever the tool prints or writes is masked here.

- shapes: credential shapes that are not findings of their own (URL user info, `curl -u`,
  auth headers) and the span masking every snippet goes through;
- masker: `Masker`, the secret rules of the whole rule set applied to snippets, paths and
  error messages of a report (`masker_for(ruleset)`, `mask_report`, `mask_output`);
- redactor: `Redactor`, secrets in a text replaced by `[REDACTED:rule-id]` (the `redact`
  command, PostToolUse answers);
- free_text: git error messages and revisions the user typed, masked before they are shown;
- printable: control and bidi characters of scanned text made safe for a terminal.

Part of the engine layer: may import `engine`, `model`, `util`; nothing above.
"""
