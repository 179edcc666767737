// A Node fetch client in a process of its own (a client in the server's process never races it): sends the same
// request `repeat` times in turn and prints, as one JSON line, each answer's status and detail or the error.
// Usage: node fetch-client.mjs '{"url":…,"headers":{…},"repeat":20,"json":<size>|"form":{"fields":{…},"file":{"field":…,"size":…}}}'
const spec = JSON.parse(process.argv[2]);

function body() {
  if (spec.json !== undefined) return JSON.stringify({ platforms: ['linkedin'], default_text: 'x'.repeat(spec.json) });
  const form = new FormData();
  for (const [k, v] of Object.entries(spec.form.fields ?? {})) form.append(k, v);
  form.append(spec.form.file.field, new Blob([new Uint8Array(spec.form.file.size).fill(7)]), 'upload.bin');
  return form;
}

const answers = [];
for (let i = 0; i < spec.repeat; i++) {
  const headers = { ...spec.headers, ...(spec.json !== undefined ? { 'content-type': 'application/json' } : {}) };
  try {
    const res = await fetch(spec.url, { method: 'POST', headers, body: body() });
    answers.push({ status: res.status, detail: (await res.json()).detail });
  } catch (err) {
    answers.push({ error: `${err.message} (${err.cause?.code ?? err.cause?.message ?? 'no cause'})` });
  }
}
process.stdout.write(`${JSON.stringify(answers)}\n`);
