// The claims page's filter (checker.sphinx.claims_index): shows the rows of the claims
// table whose topic, and whose verdict on the chosen device, match the form; says how many.
// Each row names its topic (checker-topic-t0) and each device's status
// (checker-on-cpu-confirmed) in its classes. Nothing is fetched: it works offline.
(() => {
  const form = document.querySelector("form.checker-claims-filter");
  const table = document.querySelector("table.checker-claims-table");
  if (!form || !table) return;
  const rows = Array.from(table.querySelectorAll("tbody > tr"));
  const output = form.querySelector("output");
  const statuses = (row) =>
    Array.from(row.classList, (name) => name.match(/^checker-on-([a-z]+)-(.+)$/)).filter(Boolean);
  const apply = () => {
    const topic = form.elements.topic.value;
    const device = form.elements.device.value;
    const outcome = form.elements.outcome.value;
    let shown = 0;
    for (const row of rows) {
      const onTopic = !topic || row.classList.contains(`checker-topic-${topic}`);
      const onDevice =
        (!device && !outcome) ||
        statuses(row).some(([, d, s]) => (!device || d === device) && (!outcome || s === outcome));
      const visible = onTopic && onDevice;
      row.style.display = visible ? "" : "none";
      if (visible) shown += 1;
    }
    output.textContent = form.dataset.shown
      .replace("{shown}", String(shown))
      .replace("{total}", String(rows.length));
  };
  form.addEventListener("change", apply);
  form.addEventListener("submit", (event) => event.preventDefault());
  apply();
})();
