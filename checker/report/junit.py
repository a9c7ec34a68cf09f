"""JUnit XML for CI systems: one test case per claim and device."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from checker.report import Report, evidence_summary
from checker.report.plain_text import plain
from checker.verdict import Status


def render(report: Report) -> str:
    counts = report.summary()
    suite = ET.Element(
        "testsuite",
        {
            "name": "checker.verify",
            "tests": str(len(report.verdicts)),
            "failures": str(counts["contradicted"]),
            "errors": str(counts["error"]),
            "skipped": str(counts["not-run"]),
        },
    )
    for v in report.verdicts:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": v.claim.topic,
                "name": f"{v.claim.id}[{v.device}]",
                "time": f"{v.evidence.duration_s:.4f}" if v.evidence else "0",
            },
        )
        site = report.site(v.claim.id)
        if site:
            case.set("file", str(site.path))
            case.set("line", str(site.line))
        if v.status is Status.CONTRADICTED:
            failure = ET.SubElement(
                case,
                "failure",
                {"message": f"expected {v.expected.value}, measured {v.outcome.value}"},
            )
            failure.text = evidence_summary(v, limit=50)
        elif v.status is Status.ERROR:
            ET.SubElement(case, "error", {"message": v.reason.splitlines()[0]}).text = v.reason
        elif v.status is Status.NOT_RUN:
            ET.SubElement(case, "skipped", {"message": v.reason})
        else:
            ET.SubElement(case, "system-out").text = evidence_summary(v, limit=50)
    for element in suite.iter():  # XML 1.0 cannot even hold most control characters
        element.attrib.update({k: plain(v) for k, v in element.attrib.items()})
        if element.text:
            element.text = plain(element.text)
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
