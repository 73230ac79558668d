"""Server reflection that keeps the contract's comments, so ``grpcurl describe`` shows
which way strength points, the card syntax and every field's meaning.

grpc's reflection servicer answers from a descriptor pool, and a pool's descriptors drop
``source_code_info`` (the comments) when copied out. ``DescribedPool`` wraps the default
pool, where the generated code registered every file, and answers our own files from the
descriptor set that the build (``setup.py``) writes with source info; every other file
(health, reflection, google's) is the pool's own.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection

DESCRIPTOR_SET = "handeval_descriptors.binpb"
"""In ``service/gen``: our .proto files with their comments (a FileDescriptorSet)."""


class _DescribedFile:
    """A file descriptor as the reflection servicer reads it: name, dependencies, and
    ``CopyToProto`` filling in the commented proto where there is one."""

    def __init__(self, pool: DescribedPool, descriptor: Any) -> None:
        self._pool = pool
        self._descriptor = descriptor
        self.name: str = descriptor.name

    @property
    def dependencies(self) -> list[_DescribedFile]:
        return [self._pool.described(d) for d in self._descriptor.dependencies]

    def CopyToProto(self, proto: descriptor_pb2.FileDescriptorProto) -> None:
        commented = self._pool.commented.get(self.name)
        if commented is None:
            self._descriptor.CopyToProto(proto)
        else:
            proto.CopyFrom(commented)


class DescribedPool:
    """The default descriptor pool, with our files answered with their comments."""

    def __init__(self, commented: descriptor_pb2.FileDescriptorSet) -> None:
        self._base = descriptor_pool.Default()
        self.commented = {file.name: file for file in commented.file}

    def described(self, descriptor: Any) -> _DescribedFile:
        return _DescribedFile(self, descriptor)

    def FindFileByName(self, name: str) -> _DescribedFile:
        return self.described(self._base.FindFileByName(name))

    def FindFileContainingSymbol(self, symbol: str) -> _DescribedFile:
        return self.described(self._base.FindFileContainingSymbol(symbol))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def commented_files() -> descriptor_pb2.FileDescriptorSet:
    data = (resources.files("handeval_client.gen") / DESCRIPTOR_SET).read_bytes()
    return descriptor_pb2.FileDescriptorSet.FromString(data)


def enable_reflection(service_names: list[str], server: Any) -> None:
    """Serve reflection for ``service_names`` on ``server`` (sync or aio), with comments."""
    reflection.enable_server_reflection(
        [*service_names, reflection.SERVICE_NAME], server, pool=DescribedPool(commented_files())
    )
