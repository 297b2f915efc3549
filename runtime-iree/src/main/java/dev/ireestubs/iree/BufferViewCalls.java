package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls for HAL buffer views ({@code iree/hal/buffer_view.h}, {@code buffer_view_util.h}):
 * making one over a copy of host bytes, and reading a view's shape, element type, encoding, size
 * and buffer. Callers pass valid handles.
 */
final class BufferViewCalls {

  private final MethodHandle bufferViewAllocateBufferCopy;
  private final MethodHandle bufferViewRelease;
  private final MethodHandle bufferViewRetain;
  private final MethodHandle bufferViewBuffer;
  private final MethodHandle bufferViewShapeRank;
  private final MethodHandle bufferViewShapeDim;
  private final MethodHandle bufferViewElementType;
  private final MethodHandle bufferViewEncodingType;
  private final MethodHandle bufferViewByteLength;

  BufferViewCalls(NativeSymbols symbols) {
    bufferViewAllocateBufferCopy =
        symbols.bind(
            "iree_hal_buffer_view_allocate_buffer_copy",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_INT,
                JAVA_INT,
                Layouts.BUFFER_PARAMS,
                Layouts.BYTE_SPAN,
                ADDRESS));
    bufferViewRelease =
        symbols.bind("iree_hal_buffer_view_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    bufferViewRetain =
        symbols.bindCritical("iree_hal_buffer_view_retain", FunctionDescriptor.ofVoid(JAVA_LONG));
    bufferViewBuffer =
        symbols.bindCritical(
            "iree_hal_buffer_view_buffer", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    bufferViewShapeRank =
        symbols.bindCritical(
            "iree_hal_buffer_view_shape_rank", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    bufferViewShapeDim =
        symbols.bindCritical(
            "iree_hal_buffer_view_shape_dim",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    bufferViewElementType =
        symbols.bindCritical(
            "iree_hal_buffer_view_element_type", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    bufferViewEncodingType =
        symbols.bindCritical(
            "iree_hal_buffer_view_encoding_type", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    bufferViewByteLength =
        symbols.bindCritical(
            "iree_hal_buffer_view_byte_length", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
  }

  long bufferViewAllocateBufferCopy(
      MemorySegment device,
      MemorySegment deviceAllocator,
      long rank,
      MemorySegment shape,
      int elementType,
      int encodingType,
      MemorySegment bufferParams,
      MemorySegment initialData,
      MemorySegment outBufferView) {
    try {
      return (long)
          bufferViewAllocateBufferCopy.invokeExact(
              device,
              deviceAllocator,
              rank,
              shape,
              elementType,
              encodingType,
              bufferParams,
              initialData,
              outBufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferViewRelease(long bufferView) {
    try {
      bufferViewRelease.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferViewRetain(long bufferView) {
    try {
      bufferViewRetain.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewBuffer(long bufferView) {
    try {
      return (long) bufferViewBuffer.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewShapeRank(long bufferView) {
    try {
      return (long) bufferViewShapeRank.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewShapeDim(long bufferView, long index) {
    try {
      return (long) bufferViewShapeDim.invokeExact(bufferView, index);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int bufferViewElementType(long bufferView) {
    try {
      return (int) bufferViewElementType.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int bufferViewEncodingType(long bufferView) {
    try {
      return (int) bufferViewEncodingType.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewByteLength(long bufferView) {
    try {
      return (long) bufferViewByteLength.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }
}
