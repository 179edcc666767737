// Import: a file of posts (CSV or JSON lines) checked row by row (POST /unified/bulk/validate: nothing written), the
// report of every row and column at fault, then the import (POST /unified/bulk/import, all or nothing or only the
// valid rows) and what it created. The template is the header the import reads, from GET /unified/platforms. A plan
// without bulk scheduling (bulk_scheduling_enabled, as the routes check) gets the plan's message instead of the form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { historyKey } from '../../api/history.ts';
import { networkName } from '../../api/networks.ts';
import { usePlatforms } from '../../api/platforms.ts';
import type { paths } from '../../api/schema.d.ts';
import { useWorkspace } from '../../app/session.tsx';
import { t } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { DataTable } from '../../ui/DataTable.tsx';
import { Field } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ErrorText, Loading, QueryView } from '../../ui/States.tsx';
import { createdRows, formatOf, type ImportFormat, importColumns, templateCsv } from './template.ts';
import '../../styles/pages.css';
import './import.css';

type Report = paths['/unified/bulk/validate']['post']['responses'][200]['content']['application/json'];
type Mode = 'all_or_nothing' | 'valid_only';

interface Chosen {
  text: string;
  format: ImportFormat;
}

/** Sends the file as the body, in its own format (the routes read the raw body, not JSON). */
const asFile = (file: Chosen) => ({
  body: file.text,
  bodySerializer: (body: string) => body,
  headers: { 'Content-Type': file.format },
});

function Template() {
  const platforms = usePlatforms();
  const columns = useMemo(() => importColumns(platforms.data?.platforms ?? []), [platforms.data]);
  const [href, setHref] = useState<string>();
  useEffect(() => {
    if (!platforms.data) return;
    const url = URL.createObjectURL(new Blob([templateCsv(columns)], { type: 'text/csv' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [platforms.data, columns]);
  if (!href) return null;
  return (
    <p className="import-template">
      <a className="btn" href={href} download="herald-import-template.csv">
        {t.import.template}
      </a>{' '}
      <span className="muted">{t.import.templateHint(columns.join(', '))}</span>
    </p>
  );
}

/**
 * An all-or-nothing import refused for its rows: each row's message already names its row and column ("Row 3,
 * column networks: …"), so they are shown as they are, without the field paths.
 */
function refusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0) return error;
  return new Error(Object.values(error.fields).join(' '));
}

function ReportView({ report }: { report: Report }) {
  return (
    <section className="card import-report" aria-labelledby="import-report-heading">
      <h2 id="import-report-heading">{t.import.reportTitle}</h2>
      <p role="status">
        {t.import.summary(report.rows, report.valid, report.invalid)} {report.success && t.import.allValid}
      </p>
      {report.errors.length > 0 && (
        <DataTable caption={t.import.errorsCaption} columns={[t.import.row, t.import.column, t.import.message]} stack>
          {report.errors.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a row may have several errors on one column
            <tr key={i}>
              <th scope="row">
                <span className="import-label">{t.import.row} </span>
                {e.row}
              </th>
              <td>
                <span className="import-label">{t.import.column}: </span>
                <code>{e.column ?? t.import.wholeRow}</code>
              </td>
              <td className="import-message">{e.message}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

function ImportForm() {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<Chosen>();
  const [choiceError, setChoiceError] = useState<string>();
  const [mode, setMode] = useState<Mode>('all_or_nothing');
  const check = useMutation({
    mutationFn: (f: Chosen) => must(api.POST('/unified/bulk/validate', asFile(f) as never)) as Promise<Report>,
  });
  const run = useMutation({
    mutationFn: ({ f, m }: { f: Chosen; m: Mode }) =>
      must(api.POST('/unified/bulk/import', { params: { query: { mode: m } }, ...asFile(f) } as never)) as Promise<
        paths['/unified/bulk/import']['post']['responses'][200]['content']['application/json']
      >,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: historyKey(workspace.id) }),
  });
  const fmt = useMemo(
    () =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: workspace.time_zone }),
    [workspace.time_zone],
  );

  async function choose(chosen: File | undefined) {
    check.reset();
    run.reset();
    setFile(undefined);
    setChoiceError(undefined);
    if (!chosen) return;
    const format = formatOf(chosen);
    if (!format) {
      setChoiceError(t.import.unsupported);
      return;
    }
    const next = { text: await chosen.text(), format };
    setFile(next);
    check.mutate(next);
  }

  const report = check.data;
  const created = run.data ? createdRows(run.data) : [];
  return (
    <>
      <form
        className="card form-card import-form"
        aria-label={t.nav.import}
        onSubmit={(e) => {
          e.preventDefault();
          if (file) run.mutate({ f: file, m: mode });
        }}
      >
        <Field label={t.import.file} hint={t.import.fileHint} error={choiceError}>
          {(c) => (
            <input
              {...c}
              type="file"
              accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
              onChange={(e) => void choose(e.target.files?.[0])}
            />
          )}
        </Field>
        {check.isPending && <Loading label={t.import.checking} />}
        <ErrorText error={check.error} />
        {report && <ReportView report={report} />}
        {report && report.valid > 0 && (
          <>
            <fieldset className="import-mode">
              <legend>{t.import.mode}</legend>
              {(['all_or_nothing', 'valid_only'] as const).map((m) => (
                <label key={m} className="check">
                  <input
                    type="radio"
                    name="mode"
                    value={m}
                    checked={mode === m}
                    onChange={() => {
                      setMode(m);
                      run.reset();
                    }}
                  />
                  {m === 'all_or_nothing' ? t.import.allOrNothing : t.import.validOnly}
                </label>
              ))}
            </fieldset>
            <div className="row">
              <Button type="submit" variant="primary" busy={run.isPending} disabled={run.isSuccess}>
                {t.import.importButton}
              </Button>
            </div>
          </>
        )}
        <ErrorText error={refusal(run.error)} />
      </form>
      {run.data && (
        <section className="card import-result" aria-labelledby="import-result-heading">
          <h2 id="import-result-heading">{t.import.resultTitle}</h2>
          <p role="status">{t.import.imported(run.data.imported, run.data.credits_reserved)}</p>
          {created.length > 0 && (
            <DataTable
              caption={t.import.createdCaption}
              columns={[t.import.row, t.import.network, t.import.created]}
              stack
            >
              {created.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <span className="import-label">{t.import.row} </span>
                    {c.row}
                  </th>
                  <td>{networkName(c.platform)}</td>
                  <td>
                    {c.scheduledTime ? t.import.scheduledAt(fmt.format(new Date(c.scheduledTime))) : t.import.draft}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <p className="import-links">
            <Link to="/calendar">{t.import.seeCalendar}</Link>
            <Link to="/posts">{t.import.seePosts}</Link>
          </p>
        </section>
      )}
    </>
  );
}

export default function ImportPage() {
  const { workspace } = useWorkspace();
  const usage = useQuery({ queryKey: ['usage', workspace.id], queryFn: () => must(api.GET('/billing/usage')) });
  return (
    <>
      <PageHeader title={t.nav.import} />
      <p className="lead">{t.import.intro}</p>
      <QueryView query={usage}>
        {(u) =>
          u.features.bulk_scheduling_enabled ? (
            <>
              <Template />
              <ImportForm />
            </>
          ) : (
            <p className="page-note" role="note">
              {t.import.planRequired(u.plan_id)}
            </p>
          )
        }
      </QueryView>
    </>
  );
}
