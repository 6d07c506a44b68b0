//===- MemoryInstrs.td ---*- tablegen -*-===//
