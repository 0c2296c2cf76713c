import { withQuery, type QueryParams } from '../../api/http.js';

/** Downloads the filtered list (every page) as CSV for a spreadsheet. */
export function CsvExportLink({ path, params, what }: { path: string; params: QueryParams; what: string }) {
  return (
    <a className="button button-secondary button-small" href={withQuery(path, { ...params, format: 'csv' })} download>
      Download CSV<span className="visually-hidden"> of the {what}</span>
    </a>
  );
}
