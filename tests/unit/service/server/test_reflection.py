"""Reflection with the contract's comments (``service.server.reflection``): our files are
answered from the commented descriptor set, every other file as the pool has it."""

from __future__ import annotations

from google.protobuf import descriptor_pb2

from service.server.reflection import DescribedPool, commented_files


def test_our_files_are_described_with_their_comments_and_others_as_they_are() -> None:
    pool = DescribedPool(commented_files())
    ours = pool.FindFileContainingSymbol("handeval.v1.HandEvaluator")
    proto = descriptor_pb2.FileDescriptorProto()
    ours.CopyToProto(proto)
    assert proto.source_code_info.location, "the comments are kept"
    assert proto.name == ours.name
    other = descriptor_pb2.FileDescriptorProto()
    pool.FindFileByName("google/protobuf/descriptor.proto").CopyToProto(other)
    assert other.name == "google/protobuf/descriptor.proto"
