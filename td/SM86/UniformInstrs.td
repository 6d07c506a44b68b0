//===- UniformInstrs.td ---*- tablegen -*-===//
