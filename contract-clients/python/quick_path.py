"""The quick path through a Python client that openapi-generator made from the service's OpenAPI document, with
no edits: plan, submit, list a page then the next, await, events, a revision planned and applied, a drift check and
its report, an import refused for a network that does not exist, delete. Run by GeneratedClientsTest against
`zop serve --demo`: ZOP_URL and ZOP_TOKEN name the service and an admin token of the demo organisation."""
import os
import sys
import uuid

import zop_client
from zop_client.api.jobs_api import JobsApi
from zop_client.api.spaces_api import SpacesApi
from zop_client.models.registry_spec import RegistrySpec
from zop_client.models.resource_spec import ResourceSpec
from zop_client.exceptions import NotFoundException
from zop_client.models.import_job import ImportJob
from zop_client.models.revise_job import ReviseJob
from zop_client.models.submit_job import SubmitJob


def main():
    config = zop_client.Configuration(host=os.environ["ZOP_URL"], access_token=os.environ["ZOP_TOKEN"])
    with zop_client.ApiClient(config) as api:
        spaces = SpacesApi(api)
        jobs = JobsApi(api)

        demo = [s for s in spaces.list_spaces(limit=100).data if s.name == "demo"]
        check(len(demo) == 1, "the demo space is listed")
        space = demo[0].id

        run = uuid.uuid4().hex[:8]
        body = lambda n: SubmitJob.from_dict(
            {"spaceID": space, "kind": "registry", "config": {"name": f"py-{run}/app-{n}"}, "name": f"py {n}"})

        plan = jobs.plan_job(body(0)).data
        check(len(plan.steps) > 0, f"plan: {len(plan.steps)} steps")

        submitted = [jobs.submit_job(body(n), idempotency_key=f"py-{run}-{n}").data for n in range(3)]
        check(all(j.id.startswith("job_") for j in submitted), "submitted 3 jobs")

        first = jobs.list_jobs(space_id=space, limit=2, status=["pending", "running", "succeeded"])
        check(len(first.data) == 2 and first.next_cursor is not None, "first page: 2 jobs and a cursor")
        check(first.data[0].id == submitted[2].id, "newest first: the job just submitted leads the first page")
        second = jobs.list_jobs(space_id=space, limit=2, cursor=first.next_cursor)
        check(len(second.data) >= 1, f"next page: {len(second.data)} job(s)")
        check(not {j.id for j in first.data} & {j.id for j in second.data}, "the pages do not overlap")
        oldest = jobs.list_jobs(space_id=space, limit=500, order="oldest").data
        check([j.id for j in oldest][-3:] == [j.id for j in submitted], "order=oldest lists them as submitted")

        done = [jobs.await_job(j.id, timeout_ms=20000).data for j in submitted]
        check(all(j.status == "succeeded" for j in done), "awaited: " + ", ".join(j.status for j in done))

        events = jobs.list_job_events(done[0].id, after=0).data
        check(len(events) > 0 and [e.seq for e in events] == sorted(e.seq for e in events),
              f"events: {len(events)}, in order")

        # a revision: the first repository made immutable and scanned, its plan read first (the generator names a
        # change's field and from var_field and var_from: both are reserved in Python)
        revised = ReviseJob(config=ResourceSpec(RegistrySpec(name=f"py-{run}/app-0", immutable_tags=True,
                                                             scan_on_push=True)))
        changes = jobs.plan_job_revision(done[0].id, revised).data.changes
        check(sorted(c.var_field for c in changes) == ["immutableTags", "scanOnPush"]
              and all(c.effect == "in_place" for c in changes), "revision plan: immutableTags, scanOnPush in place")
        check(jobs.revise_job(done[0].id, revised).data.phase == "update", "revision applied: the job updates")
        updated = jobs.await_job(done[0].id, timeout_ms=20000).data
        check(updated.status == "succeeded", f"revised: {updated.status}")
        history = jobs.list_job_revisions(done[0].id).data
        check([(r.number, r.status) for r in history] == [(1, "applied"), (2, "applied")],
              "revision history: 1 and 2 applied")

        checked = jobs.check_job_drift(done[0].id).data
        check(checked.status == "in_sync" and checked.drifts == [] and checked.cloud_calls >= 1,
              f"drift check: {checked.status}, {checked.cloud_calls} cloud call(s)")
        kept = jobs.get_job_drift(done[0].id).data
        check(kept.status == "in_sync" and kept.checked_at == checked.checked_at, "the drift report is kept")

        try:
            jobs.plan_job_import(ImportJob.from_dict({"spaceID": space, "kind": "network", "externalID": f"vpc-{run}",
                                                      "config": {"name": f"py-{run}", "cidr": "10.0.0.0/16"}}))
            check(False, "an import of a network that does not exist is refused")
        except NotFoundException as e:
            check('"not_found"' in e.body, "an import of a network that does not exist: 404 not_found")

        for job in done:
            teardown = jobs.delete_job(job.id).data
            deleted = jobs.await_job(teardown.id, timeout_ms=20000).data
            check(deleted.status == "deleted", f"{job.id} torn down: {deleted.status}")
    print("python quick path: ok")


def check(condition, what):
    if not condition:
        print("FAILED: " + what, file=sys.stderr)
        sys.exit(1)
    print("ok: " + what)


if __name__ == "__main__":
    main()
