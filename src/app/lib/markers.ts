/**
 * The editor rendering of a Diagnostic: Monaco marker data for the spec
 * editor of the playground and of the Learn page. Pure data (only Monaco's
 * types are imported), so it is tested without a browser; monaco.ts sets the
 * markers.
 */
import type { editor, MarkerSeverity, Uri } from 'monaco-editor/editor';
import type { Diagnostic } from '../../core/diagnostic.ts';

/** Owner id of our markers, so they never mix with Monaco's own. */
export const MARKER_OWNER = 'osvlab';

/** Monaco's MarkerSeverity values (its enum is runtime code; this module stays free of it). */
const SEVERITY: Record<Diagnostic['severity'], MarkerSeverity> = { error: 8 as MarkerSeverity, warning: 4 as MarkerSeverity };

/**
 * One marker per diagnostic: red squiggle for an error, yellow for a warning
 * (SPEC2xx), the range from its span, the code beside the message, and its
 * notes and call trace as related information at the same place of `resource`
 * (the model's URI).
 */
export function toMarkers(diags: readonly Diagnostic[], resource: Uri): editor.IMarkerData[] {
  return diags.map((d) => {
    const range = {
      startLineNumber: d.span.line,
      startColumn: d.span.column,
      endLineNumber: d.span.endLine,
      // A zero-width span still gets a visible squiggle.
      endColumn: d.span.endLine === d.span.line && d.span.endColumn <= d.span.column ? d.span.column + 1 : d.span.endColumn,
    };
    const related = [...(d.notes ?? []).map((n) => `note: ${n}`), ...(d.trace ?? [])].map((message) => ({ resource, message, ...range }));
    return {
      severity: SEVERITY[d.severity],
      message: d.message,
      code: d.code,
      source: MARKER_OWNER,
      ...range,
      ...(related.length ? { relatedInformation: related } : {}),
    };
  });
}
