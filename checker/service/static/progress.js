// Polls the job's state and shows its progress without reloading; loads the result when done.
(function () {
  "use strict";
  var section = document.getElementById("progress");
  if (!section) { return; }
  var id = section.getAttribute("data-job");
  var stage = document.getElementById("progress-stage");
  var count = document.getElementById("progress-count");
  var bar = document.getElementById("progress-bar");
  var position = document.getElementById("progress-position");
  function poll() {
    fetch("/api/jobs/" + encodeURIComponent(id), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (job) {
        var label = section.getAttribute("data-stage-" + job.progress.stage) ||
          section.getAttribute("data-stage-other");
        stage.textContent = label;
        count.textContent = job.progress.done + " / " + job.progress.total;
        count.hidden = !job.progress.total;  // a prose-only check runs no snippets
        position.hidden = !job.position;
        if (job.position) {
          position.textContent = position.getAttribute("data-label") + ": " + job.position;
        }
        bar.max = Math.max(job.progress.total, 1);
        bar.value = job.progress.done;
        if (job.status === "done" || job.status === "failed") {
          window.location.reload();
        } else {
          window.setTimeout(poll, 500);
        }
      })
      .catch(function () { window.setTimeout(poll, 2000); });
  }
  window.setTimeout(poll, 300);
})();
