"""The postings configset in a real 2-node SolrCloud (local-solr --cloud 2, embedded ZooKeeper): it loads
(no overwriteDupes refusal), routes every group to one shard (router.field=dup_group), so collapse and
expand stay exact across shards, and atomic updates keep signature and group."""

from __future__ import annotations

from collections import defaultdict

import pytest
import requests
from solr_fixture import clear_core, generate_postings, post_docs, select

pytestmark = [pytest.mark.solr, pytest.mark.java, pytest.mark.slow]


@pytest.fixture
def cloud(solr_cloud_url: str) -> str:
    clear_core(solr_cloud_url)
    return solr_cloud_url


def test_collection_loads_with_two_shards_routed_by_dup_group(solr_cloud_url: str) -> None:
    r = requests.get(f"{solr_cloud_url}/admin/collections",
                     params={"action": "CLUSTERSTATUS", "collection": "postings", "wt": "json"}, timeout=30)
    r.raise_for_status()
    coll = r.json()["cluster"]["collections"]["postings"]
    assert coll["router"] == {"name": "compositeId", "field": "dup_group"}
    assert sorted(coll["shards"]) == ["shard1", "shard2"]
    for shard in coll["shards"].values():
        assert shard["state"] == "active"
        assert [rep["state"] for rep in shard["replicas"].values()] == ["active"]


def test_groups_live_on_one_shard_and_collapse_is_exact(cloud: str) -> None:
    postings = generate_postings(800, seed=5)
    for p in postings[::4]:  # groups decided by the service, as jobdedup index would send them
        p["dup_group"] = "svc-" + p["_truth"]
    post_docs(cloud, postings)

    per_shard: dict[str, set[str]] = {}
    for shard in ("shard1", "shard2"):
        res = select(cloud, q="*:*", fl="id,dup_group", rows=5000, shards=shard)
        per_shard[shard] = {d["dup_group"] for d in res["response"]["docs"]}
    assert per_shard["shard1"] and per_shard["shard2"], "both shards hold postings"
    assert not per_shard["shard1"] & per_shard["shard2"], "a group is split across shards"

    res = select(cloud, q="*:*", fl="id,dup_group", rows=5000)
    members: dict[str, set[str]] = defaultdict(set)
    for d in res["response"]["docs"]:
        members[d["dup_group"]].add(d["id"])
    assert res["response"]["numFound"] == len(postings)
    assert max(len(m) for m in members.values()) > 1

    res = select(cloud, q="*:*", fq="{!collapse field=dup_group}", expand="true",
                 **{"expand.rows": "100"}, rows=5000, fl="id,dup_group")
    heads = res["response"]["docs"]
    assert res["response"]["numFound"] == len(heads) == len(members)
    assert len({h["dup_group"] for h in heads}) == len(heads)
    for h in heads:
        rest = {d["id"] for d in res["expanded"].get(h["dup_group"], {"docs": []})["docs"]}
        assert rest | {h["id"]} == members[h["dup_group"]] and h["id"] not in rest


def test_atomic_update_in_cloud_keeps_signature_and_group(cloud: str) -> None:
    post_docs(cloud, [
        {"id": "a", "title": "Site Reliability Engineer", "company": "Hooli", "description": "On-call, SLOs",
         "seen_count": 1},
        {"id": "b", "title": "Site Reliability Engineer", "company": "Hooli", "description": "On-call, SLOs",
         "dup_group": "svc-9", "seen_count": 1},
    ])
    before = {d["id"]: d for d in select(cloud, q="*:*", fl="*")["response"]["docs"]}
    # the route travels with the update: dup_group as a plain value (a "set" to the value it has);
    # _route_ does not help with router.field, Solr reads the field of each document
    bump = [{"id": i, "dup_group": before[i]["dup_group"], "last_seen": {"set": "2024-06-01T00:00:00Z"},
             "seen_count": {"inc": 1}} for i in "ab"]
    post_docs(cloud, bump)
    post_docs(cloud, bump[1:])
    after = {d["id"]: d for d in select(cloud, q="*:*", fl="*")["response"]["docs"]}
    assert len(after) == 2
    for i in "ab":
        assert after[i]["signature"] == before[i]["signature"]
        assert after[i]["dup_group"] == before[i]["dup_group"]
        assert after[i]["last_seen"] == "2024-06-01T00:00:00Z"
    assert after["a"]["seen_count"] == 2 and after["b"]["seen_count"] == 3

    # without a route Solr cannot find the shard: a clear 400, never a silent copy elsewhere
    r = requests.post(f"{cloud}/postings/update", json=[{"id": "a", "seen_count": {"inc": 1}}],
                      params={"commit": "true"}, timeout=60)
    assert r.status_code == 400 and "dup_group" in r.text

    # changing the group (the route) by atomic update is refused by the plugin: delete + re-add instead
    r = requests.post(f"{cloud}/postings/update", json=[{"id": "a", "dup_group": {"set": "svc-other"}}],
                      params={"commit": "true"}, timeout=60)
    assert r.status_code == 400 and "delete it and add it again" in r.text
    assert select(cloud, q="*:*")["response"]["numFound"] == 2

    # delete by id needs no route: Solr sends it to every shard
    post_docs(cloud, {"delete": {"id": "b"}})
    assert select(cloud, q="id:b")["response"]["numFound"] == 0
