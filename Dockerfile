# handeval: gRPC on 50051, Prometheus /metrics on 9464.
# Build:  docker build -t handeval:0.1.0 .
# Run:    docker run --rm --read-only --tmpfs /tmp -p 50051:50051 -p 9464:9464 handeval:0.1.0
# Offline (no image registry, no package index in the build): .ci/docker-build-offline TAG
# builds this same file with local Debian bases and a wheelhouse, through the ARGs below;
# tests/test_docker_image.py builds it that way, runs it and stops it.

# Both stages run one interpreter (same version, same path), so the build stage's venv
# works in the runtime stage. The build base has gcc and the Python headers for the kernels.
ARG BUILD_BASE=python:3.11.13-bookworm
ARG BASE=python:3.11.13-slim-bookworm

FROM ${BUILD_BASE} AS build
# pip reads these from the environment: unset, it uses the package index; the offline build
# sets PIP_NO_INDEX=1 and PIP_FIND_LINKS to a wheelhouse on loopback.
ARG PIP_NO_INDEX
ARG PIP_FIND_LINKS
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY protos/ protos/
COPY evaluators/ evaluators/
COPY service/ service/
COPY clients/python/ clients/python/
RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
# Dependencies come from the project's own metadata (pyproject.toml), nothing else; setup.py
# generates service/gen/ from protos/ and compiles the C kernels; pip byte-compiles everything, so the read-only runtime never
# writes .pyc files. Running the server's own warm-up here (every game, single and batch)
# fails the image build if the tables or the kernels do not work as installed (python -P:
# import the installed package, not the uncompiled sources in the working directory).
RUN pip install --no-cache-dir . \
 && python -P -c "from service.server.serve import warm_up; print('warm-up seconds:', warm_up())"

FROM ${BASE} AS runtime
# nghttpx (Debian's nghttp2-proxy, 1.52.0-1+deb12u1 or later: the CVE-2023-44487 stream-reset
# rate limit) is the HTTP/2 front the k8s manifests run beside the server (docs/deploy.md):
# it ends rapid-reset and PING-flooding connections, which gRPC's core keeps serving. The
# offline build's base has it already; the image does not build without it.
RUN if ! command -v nghttpx >/dev/null; then \
      apt-get update \
      && apt-get install -y --no-install-recommends "nghttp2-proxy=1.52.0-1+deb12u*" \
      && rm -rf /var/lib/apt/lists/*; \
    fi \
 && nghttpx --version \
 && groupadd --system --gid 10001 handeval \
 && useradd --system --no-log-init --uid 10001 --gid handeval \
      --home-dir /nonexistent --shell /usr/sbin/nologin handeval \
 && install -d -o 10001 -g 10001 -m 0750 /tmp/metrics
COPY --from=build /opt/venv /opt/venv
# The TLS pod runs nghttpx under `python -m service.front` (in the venv), which ends TLS
# with checked copies of the mounted certificates and writes its log as JSON (docs/tls.md).
COPY front/nghttpx.conf /etc/handeval/nghttpx.conf
# The root filesystem can be read-only: the only writable path the service needs is
# PROMETHEUS_MULTIPROC_DIR (under /tmp; mount a tmpfs/emptyDir there).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    HANDEVAL_HOST=0.0.0.0 \
    HANDEVAL_PORT=50051 \
    HANDEVAL_METRICS_PORT=9464 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/metrics
USER 10001:10001
WORKDIR /tmp
EXPOSE 50051 9464
# Healthy = the readiness service answers SERVING (tables loaded, not draining). With TLS
# on, set HANDEVAL_HEALTH_PORT: the check then uses that plaintext port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, sys, grpc; from grpc_health.v1 import health_pb2 as h, health_pb2_grpc as g; port = os.environ.get('HANDEVAL_HEALTH_PORT') or os.environ.get('HANDEVAL_PORT', '50051'); stub = g.HealthStub(grpc.insecure_channel('127.0.0.1:' + port)); reply = stub.Check(h.HealthCheckRequest(service='handeval.v1.HandEvaluator'), timeout=2); sys.exit(reply.status != h.HealthCheckResponse.SERVING)"]
# Exec form: the server is PID 1 and receives SIGTERM itself (it drains, then exits 0).
ENTRYPOINT ["handeval", "serve"]
