package dev.ireestubs.benchmarks.iree;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code add.onnx}: an ONNX model of one {@code Add} node, {@code sum = a + b} over two {@code
 * float[4]} tensors, the computation of {@link Adder#add}. Written here, field by field, as the
 * protocol-buffer bytes of ONNX's {@code ModelProto} (onnx/onnx.proto: IR version 8, the default
 * opset 13), so the benchmark needs neither Python nor a file from elsewhere: its provenance is
 * this class. {@code main} writes it to a file, for a look with any ONNX tool.
 */
final class AddOnnx {
  private AddOnnx() {}

  // Field numbers of onnx.proto.
  private static final int MODEL_IR_VERSION = 1;
  private static final int MODEL_PRODUCER_NAME = 2;
  private static final int MODEL_GRAPH = 7;
  private static final int MODEL_OPSET_IMPORT = 8;
  private static final int OPSET_VERSION = 2;
  private static final int GRAPH_NODE = 1;
  private static final int GRAPH_NAME = 2;
  private static final int GRAPH_INPUT = 11;
  private static final int GRAPH_OUTPUT = 12;
  private static final int NODE_INPUT = 1;
  private static final int NODE_OUTPUT = 2;
  private static final int NODE_NAME = 3;
  private static final int NODE_OP_TYPE = 4;
  private static final int VALUE_INFO_NAME = 1;
  private static final int VALUE_INFO_TYPE = 2;
  private static final int TYPE_TENSOR_TYPE = 1;
  private static final int TENSOR_ELEM_TYPE = 1;
  private static final int TENSOR_SHAPE = 2;
  private static final int SHAPE_DIM = 1;
  private static final int DIM_VALUE = 1;
  private static final int FLOAT = 1; // TensorProto.DataType.FLOAT

  /** The model's bytes. */
  static byte[] bytes() {
    Proto node = new Proto();
    node.string(NODE_INPUT, "a").string(NODE_INPUT, "b").string(NODE_OUTPUT, "sum");
    node.string(NODE_NAME, "add").string(NODE_OP_TYPE, "Add");
    Proto graph = new Proto().message(GRAPH_NODE, node).string(GRAPH_NAME, "add");
    graph.message(GRAPH_INPUT, float4("a")).message(GRAPH_INPUT, float4("b"));
    graph.message(GRAPH_OUTPUT, float4("sum"));
    Proto opset = new Proto().varint(OPSET_VERSION, 13); // domain "" (ai.onnx): left out
    return new Proto()
        .varint(MODEL_IR_VERSION, 8)
        .string(MODEL_PRODUCER_NAME, "iree-stubs benchmarks/iree AddOnnx")
        .message(MODEL_GRAPH, graph)
        .message(MODEL_OPSET_IMPORT, opset)
        .toByteArray();
  }

  /** {@code name: tensor(float)[4]} as a {@code ValueInfoProto}. */
  private static Proto float4(String name) {
    Proto dim = new Proto().varint(DIM_VALUE, 4);
    Proto shape = new Proto().message(SHAPE_DIM, dim);
    Proto tensor = new Proto().varint(TENSOR_ELEM_TYPE, FLOAT).message(TENSOR_SHAPE, shape);
    Proto type = new Proto().message(TYPE_TENSOR_TYPE, tensor);
    return new Proto().string(VALUE_INFO_NAME, name).message(VALUE_INFO_TYPE, type);
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "add.onnx");
    Files.write(out, bytes());
    System.out.println("wrote " + out.toAbsolutePath());
  }

  /** A protocol-buffer message being written: varint and length-delimited fields only. */
  private static final class Proto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Proto varint(int field, long value) {
      raw(field << 3); // wire type 0
      raw(value);
      return this;
    }

    Proto string(int field, String value) {
      return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    Proto message(int field, Proto value) {
      return bytes(field, value.toByteArray());
    }

    private Proto bytes(int field, byte[] value) {
      raw((field << 3) | 2); // wire type 2
      raw(value.length);
      out.write(value, 0, value.length);
      return this;
    }

    private void raw(long value) {
      long v = value;
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    byte[] toByteArray() {
      return out.toByteArray();
    }
  }
}
