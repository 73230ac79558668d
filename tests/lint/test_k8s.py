"""The kustomize base (k8s/), its TLS overlay and its Prometheus Operator variant render,
validate offline, and hold together.

Rendering uses `kubectl kustomize` (skipped where kubectl is absent; the base then falls back
to its listed files). Every built-in object is checked against the bundled OpenAPI schemas of
kubernetes-validate in strict mode, for 1.27 (native gRPC probes went stable) and the newest
bundled release; the ServiceMonitor CRD has no bundled schema, so it is checked by hand.
"""

from __future__ import annotations

import argparse
import copy
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from benchmarks.front import BEHIND_FRONT
from service.server.config import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
TLS_OVERLAY = K8S / "overlays" / "tls"
OPERATOR_OVERLAY = K8S / "overlays" / "prometheus-operator"
SCRAPE_ANNOTATIONS = ("prometheus.io/scrape", "prometheus.io/port", "prometheus.io/path")
READINESS_SERVICE = "handeval.v1.HandEvaluator"
VERSIONS = ("1.27.0", kubernetes_validate.utils.latest_version())

Obj = dict[str, Any]


def _kustomize(path: Path) -> list[Obj]:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed")
    done = subprocess.run(
        [kubectl, "kustomize", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def _base_files() -> list[Obj]:
    """The base's objects as listed in its kustomization, for machines without kubectl."""
    base = K8S / "base"
    listing = yaml.safe_load((base / "kustomization.yaml").read_text())
    docs: list[Obj] = []
    for name in listing["resources"]:
        docs += [doc for doc in yaml.safe_load_all((base / name).read_text()) if doc]
    return docs


@pytest.fixture(scope="module")
def base() -> list[Obj]:
    if shutil.which("kubectl") is None:
        return _base_files()
    return _kustomize(K8S)


@pytest.fixture(scope="module")
def tls() -> list[Obj]:
    return _kustomize(TLS_OVERLAY)


@pytest.fixture(scope="module")
def operator() -> list[Obj]:
    return _kustomize(OPERATOR_OVERLAY)


def _one(objs: list[Obj], kind: str, name: str | None = None) -> Obj:
    found = [o for o in objs if o["kind"] == kind and name in (None, o["metadata"]["name"])]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def _containers(objs: list[Obj]) -> list[Obj]:
    return list(_one(objs, "Deployment")["spec"]["template"]["spec"]["containers"])


def _container(objs: list[Obj], name: str = "handeval") -> Obj:
    [container] = [c for c in _containers(objs) if c["name"] == name]
    return dict(container)


def _pod_ports(objs: list[Obj]) -> dict[str, int]:
    """Every container's named ports: the pod's, which probes and Services reach."""
    return {name: port for c in _containers(objs) for name, port in _ports(c).items()}


def _config(objs: list[Obj]) -> dict[str, str]:
    return dict(_one(objs, "ConfigMap", "handeval-config")["data"])


def _ports(container: Obj) -> dict[str, int]:
    return {p["name"]: p["containerPort"] for p in container.get("ports", [])}


def _selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(key) == value for key, value in selector.items())


def _builtin(objs: list[Obj]) -> Iterator[Obj]:
    return (o for o in objs if not o["apiVersion"].startswith("monitoring.coreos.com/"))


def test_base_renders_every_kind_the_service_needs(base: list[Obj]) -> None:
    kinds = sorted(o["kind"] for o in base)
    assert kinds == sorted(
        [
            "ConfigMap",
            "Deployment",
            "HorizontalPodAutoscaler",
            "PodDisruptionBudget",
            "Service",
            "Service",
        ]
    )


@pytest.mark.parametrize("version", VERSIONS)
def test_every_base_object_validates_strictly(base: list[Obj], version: str) -> None:
    for obj in _builtin(base):
        kubernetes_validate.validate(obj, version, strict=True)


@pytest.mark.parametrize("version", VERSIONS)
def test_every_tls_overlay_object_validates_strictly(tls: list[Obj], version: str) -> None:
    for obj in _builtin(tls):
        kubernetes_validate.validate(obj, version, strict=True)


@pytest.mark.parametrize("version", VERSIONS)
def test_every_operator_overlay_object_validates_strictly(
    operator: list[Obj], version: str
) -> None:
    for obj in _builtin(operator):
        kubernetes_validate.validate(obj, version, strict=True)


def _scrape_ways(objs: list[Obj]) -> list[str]:
    """How Prometheus finds the pods: by their annotations, by a ServiceMonitor, or both."""
    annotations = _one(objs, "Deployment")["spec"]["template"]["metadata"].get("annotations")
    ways = [a for a in SCRAPE_ANNOTATIONS if a in (annotations or {})]
    return ways + [o["kind"] for o in objs if o["kind"] == "ServiceMonitor"]


def test_the_base_and_the_tls_overlay_are_scraped_by_annotations_only(
    base: list[Obj], tls: list[Obj]
) -> None:
    assert _scrape_ways(base) == list(SCRAPE_ANNOTATIONS)
    assert _scrape_ways(tls) == list(SCRAPE_ANNOTATIONS)


def test_the_operator_overlay_is_scraped_by_its_service_monitor_only(
    base: list[Obj], operator: list[Obj]
) -> None:
    """Annotations and a ServiceMonitor together would scrape every pod twice."""
    assert _scrape_ways(operator) == ["ServiceMonitor"]
    unchanged = [o for o in operator if o["kind"] not in ("Deployment", "ServiceMonitor")]
    assert unchanged == [o for o in base if o["kind"] != "Deployment"]


def test_strict_validation_rejects_a_misspelled_probe(base: list[Obj]) -> None:
    broken = copy.deepcopy(_one(base, "Deployment"))
    container = broken["spec"]["template"]["spec"]["containers"][0]
    container["readinesProbe"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[-1], strict=True)


def test_image_tag_is_the_project_version(base: list[Obj]) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert _container(base)["image"].endswith(f":{version}")


def test_readiness_probe_asks_grpc_health_for_the_evaluator_service(base: list[Obj]) -> None:
    """Through the front's gRPC port: the pod is ready when the front and the server are."""
    probe = _container(base)["readinessProbe"]["grpc"]
    assert probe["service"] == READINESS_SERVICE
    assert probe["port"] == _ports(_container(base, "front"))["grpc"]


def _front_args(objs: list[Obj]) -> dict[str, str]:
    """nghttpx's arguments, by name: the front runs under its supervisor in every pod, so
    its log lines are JSON."""
    return _supervised_front(objs)[1]


def test_the_front_serves_the_grpc_port_and_forwards_to_the_server_on_loopback(
    base: list[Obj],
) -> None:
    """nghttpx (the image's front/nghttpx.conf) listens in plaintext on the port the
    Services and probes use, and forwards HTTP/2 to the server, which listens on the pod's
    loopback only; /metrics stays on every interface for Prometheus."""
    args = _front_args(base)
    data = _config(base)
    assert args["frontend"] == f"0.0.0.0,{_ports(_container(base, 'front'))['grpc']};no-tls"
    assert args["backend"] == f"127.0.0.1,{data['HANDEVAL_PORT']};;proto=h2"
    assert data["HANDEVAL_HOST"] == "127.0.0.1"
    assert data["HANDEVAL_METRICS_HOST"] == "0.0.0.0"
    copied = re.search(r"^COPY front/nghttpx\.conf (\S+)$", (ROOT / "Dockerfile").read_text(), re.M)
    assert copied and args["conf"] == copied.group(1)
    assert _container(base, "front")["image"] == _container(base)["image"]


def test_liveness_and_startup_probes_ask_for_overall_health(base: list[Obj]) -> None:
    container = _container(base)
    for name in ("livenessProbe", "startupProbe"):
        probe = container[name]["grpc"]
        assert probe.get("service", "") == "", name
        assert probe["port"] == _pod_ports(base)["grpc"], name


def test_liveness_tolerates_more_than_one_missed_check(base: list[Obj]) -> None:
    liveness = _container(base)["livenessProbe"]
    assert liveness["failureThreshold"] >= 2
    assert liveness["timeoutSeconds"] < liveness["periodSeconds"]


def test_containers_run_non_root_read_only_without_capabilities(base: list[Obj]) -> None:
    pod = _one(base, "Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert [c["name"] for c in _containers(base)] == ["handeval", "front"]
    for container in _containers(base):
        context = container["securityContext"]
        assert context["runAsNonRoot"] is True
        assert context["runAsUser"] != 0
        assert context["readOnlyRootFilesystem"] is True
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"]["drop"] == ["ALL"]
        assert "add" not in context["capabilities"]


def test_run_as_user_is_the_images_user() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    users = re.findall(r"^USER\s+(\d+)", dockerfile, flags=re.MULTILINE)
    raw = yaml.safe_load((K8S / "base" / "deployment.yaml").read_text())
    context = raw["spec"]["template"]["spec"]["containers"][0]["securityContext"]
    assert users and int(users[-1]) == context["runAsUser"]


def test_termination_grace_exceeds_prestop_sleep_plus_server_grace(base: list[Obj]) -> None:
    pod = _one(base, "Deployment")["spec"]["template"]["spec"]
    command = _container(base)["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop = float(command[1])
    server_grace = float(_config(base)["HANDEVAL_GRACE_SECONDS"])
    assert pre_stop > 0
    assert pod["terminationGracePeriodSeconds"] > pre_stop + server_grace


def test_the_front_drains_after_the_servers_prestop_and_outlasts_its_grace(
    base: list[Obj],
) -> None:
    """The front keeps forwarding while the endpoint removal spreads, then stops gracefully
    (SIGQUIT: GOAWAY, calls in flight finish; the kubelet's SIGTERM would cut them) and
    waits out the server's drain, all within the pod's grace period."""
    pod = _one(base, "Deployment")["spec"]["template"]["spec"]
    server_pre_stop = float(_container(base)["lifecycle"]["preStop"]["exec"]["command"][1])
    shell, flag, script = _container(base, "front")["lifecycle"]["preStop"]["exec"]["command"]
    assert (shell, flag) == ("sh", "-c")
    match = re.fullmatch(r"sleep (\d+) && kill -QUIT 1 && sleep (\d+)", script)
    assert match, script
    before, after = float(match.group(1)), float(match.group(2))
    assert before == server_pre_stop
    assert after > float(_config(base)["HANDEVAL_GRACE_SECONDS"])
    assert pod["terminationGracePeriodSeconds"] > before + after


def test_writable_paths_are_empty_dirs(base: list[Obj]) -> None:
    pod = _one(base, "Deployment")["spec"]["template"]["spec"]
    empty_dirs = {v["name"] for v in pod["volumes"] if "emptyDir" in v}
    mounts = {m["mountPath"]: m["name"] for m in _container(base)["volumeMounts"]}
    multiproc = _config(base)["PROMETHEUS_MULTIPROC_DIR"]
    assert mounts["/tmp"] in empty_dirs
    assert mounts[multiproc] in empty_dirs
    assert set(mounts.values()) <= empty_dirs


def test_every_container_sets_requests_and_limits(base: list[Obj]) -> None:
    for container in _containers(base):
        resources = container["resources"]
        for resource in ("cpu", "memory"):
            assert resource in resources["requests"], container["name"]
            assert resource in resources["limits"], container["name"]


def test_hpa_scales_the_deployment_on_cpu_from_two_replicas(base: list[Obj]) -> None:
    spec = _one(base, "HorizontalPodAutoscaler")["spec"]
    deployment = _one(base, "Deployment")
    assert spec["scaleTargetRef"]["kind"] == "Deployment"
    assert spec["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert spec["minReplicas"] >= 2
    assert spec["maxReplicas"] > spec["minReplicas"]
    [metric] = spec["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"


def test_pdb_allows_one_eviction_and_covers_the_pods(base: list[Obj]) -> None:
    spec = _one(base, "PodDisruptionBudget")["spec"]
    pod_labels = _one(base, "Deployment")["spec"]["template"]["metadata"]["labels"]
    assert spec["maxUnavailable"] == 1
    assert "minAvailable" not in spec
    assert _selects(spec["selector"]["matchLabels"], pod_labels)


def test_services_select_the_pods_and_target_named_container_ports(base: list[Obj]) -> None:
    pod_labels = _one(base, "Deployment")["spec"]["template"]["metadata"]["labels"]
    container_ports = _pod_ports(base)
    services = [o for o in base if o["kind"] == "Service"]
    for service in services:
        assert _selects(service["spec"]["selector"], pod_labels)
        for port in service["spec"]["ports"]:
            assert container_ports[port["targetPort"]] == port["port"]
    cluster_ip = [s for s in services if s["spec"].get("clusterIP") != "None"]
    headless = [s for s in services if s["spec"].get("clusterIP") == "None"]
    assert len(cluster_ip) == 1
    assert len(headless) == 1
    assert [p["name"] for p in headless[0]["spec"]["ports"]] == ["grpc"]


def test_scrape_annotations_name_the_metrics_port(base: list[Obj]) -> None:
    template = _one(base, "Deployment")["spec"]["template"]
    annotations = template["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/path"] == "/metrics"
    port = int(annotations["prometheus.io/port"])
    assert (
        port == _ports(_container(base))["metrics"] == int(_config(base)["HANDEVAL_METRICS_PORT"])
    )


def test_service_monitor_scrapes_one_service_on_its_metrics_port(operator: list[Obj]) -> None:
    monitor = _one(operator, "ServiceMonitor")
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    assert set(monitor) == {"apiVersion", "kind", "metadata", "spec"}
    spec = monitor["spec"]
    selected = [
        o
        for o in operator
        if o["kind"] == "Service"
        and _selects(spec["selector"]["matchLabels"], o["metadata"].get("labels", {}))
    ]
    assert len(selected) == 1, "each pod must be scraped through exactly one Service"
    port_names = {p["name"] for p in selected[0]["spec"]["ports"]}
    assert spec["endpoints"]
    for endpoint in spec["endpoints"]:
        assert set(endpoint) <= {"port", "path", "interval", "scrapeTimeout", "scheme"}
        assert endpoint["port"] in port_names
        assert endpoint["path"] == "/metrics"
        assert re.fullmatch(r"\d+[smh]", endpoint["interval"])
        assert _seconds(endpoint["scrapeTimeout"]) <= _seconds(endpoint["interval"])


def _seconds(duration: str) -> int:
    return int(duration[:-1]) * {"s": 1, "m": 60, "h": 3600}[duration[-1]]


def test_config_map_holds_only_settings_the_server_reads_with_valid_values(
    base: list[Obj],
) -> None:
    data = _config(base)
    known = {ENV_PREFIX + f.upper() for f in Settings.__dataclass_fields__}
    assert set(data) - known - {"PROMETHEUS_MULTIPROC_DIR"} == set()
    Settings.from_args(argparse.Namespace(), environ=data)


def _supervised_front(objs: list[Obj]) -> tuple[dict[str, str], dict[str, str]]:
    """The front supervisor's arguments and nghttpx's (after ``--``), by name."""
    front = _container(objs, "front")
    assert front["command"] == ["python", "-m", "service.front"]
    split = front["args"].index("--")
    own, nghttpx = front["args"][:split], front["args"][split + 1 :]
    named = [dict(arg.removeprefix("--").split("=", 1) for arg in args) for args in (own, nghttpx)]
    return named[0], named[1]


def test_the_tls_overlay_runs_the_front_ending_tls_before_the_server_on_loopback(
    base: list[Obj], tls: list[Obj]
) -> None:
    """The TLS pod is the base's pod with the front ending TLS: the same server settings
    (loopback, the front's stream cap, the forwarded peer), the same nghttpx settings, a
    frontend without ``no-tls``."""
    assert [c["name"] for c in _containers(tls)] == ["handeval", "front"]
    _, nghttpx = _supervised_front(tls)
    plain = _front_args(base)
    assert nghttpx["conf"] == plain["conf"]
    assert nghttpx["backend"] == plain["backend"]
    assert nghttpx["frontend"] == plain["frontend"].removesuffix(";no-tls")
    assert nghttpx["frontend"] == f"0.0.0.0,{_ports(_container(tls, 'front'))['grpc']}"
    data, plain_data = _config(tls), _config(base)
    for key in ("HANDEVAL_HOST", "HANDEVAL_PORT", "HANDEVAL_MAX_STREAMS_PER_CONNECTION",
                "HANDEVAL_PEER_FROM_FORWARDED"):  # fmt: skip
        assert data[key] == plain_data[key], key
    assert not any(key.startswith("HANDEVAL_TLS_") for key in data), "the front ends TLS"
    assert _container(tls, "front")["lifecycle"] == _container(base, "front")["lifecycle"]


def test_tls_overlay_probes_the_servers_plaintext_health_port(tls: list[Obj]) -> None:
    """Kubernetes' gRPC probes cannot speak TLS: they ask the server's health-only port,
    which listens on every interface while its gRPC port stays on loopback; the front is
    probed by TCP. The health port is in no Service."""
    container = _container(tls)
    data = _config(tls)
    health_port = int(data["HANDEVAL_HEALTH_PORT"])
    assert data["HANDEVAL_HEALTH_HOST"] == "0.0.0.0"
    assert health_port != int(data["HANDEVAL_PORT"])
    assert _ports(container)["health"] == health_port
    for name in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[name]["grpc"]["port"] == health_port, name
    assert container["readinessProbe"]["grpc"]["service"] == READINESS_SERVICE
    front = _container(tls, "front")
    for name in ("readinessProbe", "livenessProbe"):
        assert front[name]["tcpSocket"]["port"] == _ports(front)["grpc"], name
    for service in (o for o in tls if o["kind"] == "Service"):
        assert health_port not in {p["port"] for p in service["spec"]["ports"]}
        [grpc_port] = [p for p in service["spec"]["ports"] if p["name"] == "grpc"]
        assert grpc_port["appProtocol"] == "https", "TLS, not h2c"


def test_tls_overlay_front_reads_the_mounted_secret_and_keeps_its_copies_in_memory(
    tls: list[Obj],
) -> None:
    pod = _one(tls, "Deployment")["spec"]["template"]["spec"]
    own, _ = _supervised_front(tls)
    mounts = {m["name"]: m for m in _container(tls, "front")["volumeMounts"]}
    secret_volumes = {v["name"]: v["secret"] for v in pod["volumes"] if "secret" in v}
    [(name, secret)] = secret_volumes.items()
    assert secret["secretName"]
    assert mounts[name]["readOnly"] is True
    directory = mounts[name]["mountPath"].rstrip("/") + "/"
    for flag in ("cert", "key", "client-ca"):
        assert own[flag].startswith(directory), flag
    memory = {v["name"] for v in pod["volumes"] if v.get("emptyDir", {}).get("medium") == "Memory"}
    copies = [m for m in mounts.values() if m["mountPath"] == own["copies"]]
    assert [m["name"] for m in copies] != [] and copies[0]["name"] in memory
    assert _container(tls, "front")["securityContext"]["readOnlyRootFilesystem"] is True
    assert "volumeMounts" not in _container(tls) or name not in {
        m["name"] for m in _container(tls)["volumeMounts"]
    }, "the server needs no key"


def test_the_server_behind_the_front_takes_more_streams_a_connection_than_a_client_gets(
    base: list[Obj], tls: list[Obj]
) -> None:
    """The front holds each client connection to its stream cap and carries every client's
    calls to the server over a few connections, so the server's cap must be wider; without
    the TLS pod has the same front."""
    conf = (ROOT / "front" / "nghttpx.conf").read_text().splitlines()
    settings = dict(line.split("=", 1) for line in conf if line and not line.startswith("#"))
    per_client = int(settings["frontend-http2-max-concurrent-streams"])
    streams = _config(base)["HANDEVAL_MAX_STREAMS_PER_CONNECTION"]
    assert int(streams) > per_client
    forwarded = ("--peer-from-forwarded",) if _on(_config(base), "PEER_FROM_FORWARDED") else ()
    behind = ("--max-streams-per-connection", streams, *forwarded)
    assert behind == BEHIND_FRONT, "what tests run behind it"
    assert _config(tls)["HANDEVAL_MAX_STREAMS_PER_CONNECTION"] == streams


def _on(config: dict[str, str], name: str) -> bool:
    return config.get(ENV_PREFIX + name, "false").lower() in ("1", "true", "yes", "on")


def test_the_peer_is_the_forwarded_client_only_where_the_front_strips_what_clients_send(
    base: list[Obj], tls: list[Obj]
) -> None:
    """Behind the front every call comes over the front's connections, so the cost lane's
    share is charged to the client the front names; that is safe only because the front
    drops any Forwarded header a client sends and the server listens on loopback; the TLS
    pod has the same front."""
    conf = (ROOT / "front" / "nghttpx.conf").read_text().splitlines()
    settings = dict(line.split("=", 1) for line in conf if line and not line.startswith("#"))
    assert settings["add-forwarded"] == "for"
    assert settings["strip-incoming-forwarded"] == "yes"
    assert _on(_config(base), "PEER_FROM_FORWARDED")
    assert _config(base)["HANDEVAL_HOST"] == "127.0.0.1"
    assert "front" in {c["name"] for c in _containers(base)}
    assert _on(_config(tls), "PEER_FROM_FORWARDED")
    assert _config(tls)["HANDEVAL_HOST"] == "127.0.0.1"
    assert "front" in {c["name"] for c in _containers(tls)}
