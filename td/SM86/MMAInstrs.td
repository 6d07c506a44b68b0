//===- MMAInstrs.td ---*- tablegen -*-===//
