package dev.ireestubs.vm;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A ref the Java side does not look into: a type name (e.g. {@code hal.fence}, {@code hal.device})
 * and a payload, the Java object a backend keeps for it (a native handle, a host module's own
 * object, or nothing). Equality is identity, as for the VM's refs.
 *
 * <p>An opaque ref may carry a release action (a native backend's {@code iree_vm_ref_release});
 * {@link #close()} runs it exactly once, whichever thread calls it and however often. After close,
 * {@link #payload()} throws. A ref made without a release action holds nothing to release, and
 * closing it only marks it closed.
 *
 * <p>Thread-safe: the type name and payload never change, and close is atomic.
 */
public final class OpaqueRef implements VmRef, VmResource {

  @SuppressWarnings("UnnecessaryLambda") // sentinels, compared by identity
  private static final Runnable NOTHING = () -> {};

  @SuppressWarnings("UnnecessaryLambda")
  private static final Runnable CLOSED = () -> {};

  private final String refTypeName;
  private final Object payload;
  private final AtomicReference<Runnable> release;

  private OpaqueRef(String refTypeName, Object payload, Runnable release) {
    this.refTypeName = VmTypeDef.checkRefTypeName(refTypeName);
    this.payload = payload;
    this.release = new AtomicReference<>(release);
  }

  /**
   * An opaque ref of type {@code refTypeName} carrying {@code payload} (may be null), with nothing
   * to release.
   *
   * @param refTypeName the VM type name, such as {@code hal.fence}
   * @param payload what the ref stands for, such as a backend's handle, or null
   * @return a new open ref
   * @throws IllegalArgumentException when the type name is empty or contains whitespace
   */
  public static OpaqueRef of(String refTypeName, Object payload) {
    return new OpaqueRef(refTypeName, payload, NOTHING);
  }

  /**
   * An opaque ref whose {@link #close()} runs {@code release} once: for a backend whose payload
   * holds a native resource.
   *
   * @param refTypeName the VM type name, such as {@code hal.fence}
   * @param payload what the ref stands for, or null
   * @param release what to run on the first close, such as releasing a native handle
   * @return a new open ref
   * @throws IllegalArgumentException when the type name is empty or contains whitespace
   */
  public static OpaqueRef withRelease(String refTypeName, Object payload, Runnable release) {
    return new OpaqueRef(refTypeName, payload, Objects.requireNonNull(release, "release"));
  }

  @Override
  public String refTypeName() {
    return refTypeName;
  }

  /**
   * The payload (may be null).
   *
   * @return the object the ref was made with
   * @throws IllegalStateException when the ref is closed
   */
  public Object payload() {
    if (isClosed()) {
      throw new IllegalStateException(refTypeName + " ref is closed");
    }
    return payload;
  }

  /**
   * The payload as a {@code type}.
   *
   * @param <T> the payload's expected type
   * @param type the class of {@code T}
   * @return the payload, cast
   * @throws IllegalStateException when the ref is closed
   * @throws VmTypeException when the payload is null or not a {@code type}
   */
  public <T> T payload(Class<T> type) {
    Object p = payload();
    if (!type.isInstance(p)) {
      throw new VmTypeException(
          refTypeName
              + " ref carries "
              + (p == null ? "no payload" : dev.ireestubs.abi.JavaMapping.aTypeName(p))
              + ", expected "
              + dev.ireestubs.abi.JavaMapping.aTypeName(type));
    }
    return type.cast(p);
  }

  /** Runs the release action, if any, the first time; later calls do nothing. */
  @Override
  public void close() {
    Runnable r = release.getAndSet(CLOSED);
    if (r != CLOSED) {
      r.run();
    }
  }

  @Override
  public boolean isClosed() {
    return release.get() == CLOSED;
  }

  /** The type name and identity, e.g. {@code hal.fence@1b6d3586}; {@code (closed)} once closed. */
  @Override
  public String toString() {
    return refTypeName
        + "@"
        + Integer.toHexString(System.identityHashCode(this))
        + (isClosed() ? " (closed)" : "");
  }
}
