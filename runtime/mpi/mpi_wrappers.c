/* libompp_mpi: MPI calls measured through the MPI profiling interface.
 *
 * Each MPI_* function below is called by the program in place of the MPI
 * library's own (libompp_mpi comes before libmpi on the link line, see
 * docs/mpi.md); it enters the function's MPI region in libompp, calls the
 * library through its PMPI_* name, and leaves the region with the bytes the
 * call moved.  The region is entered on the calling thread wherever it is,
 * so a call inside a parallel region shows in that region's call tree.
 *
 * Bytes are the data in the call's buffers that this rank sends plus what
 * it receives: count x type size (PMPI_Type_size), the received count for
 * a blocking receive, the posted count for a nonblocking one (its wait
 * moves no further bytes, so none are counted twice).  They are computed
 * only after a successful call: its types are valid then, and asking MPI
 * about an invalid one would invoke the error handler.
 *
 * Only libompp and MPI are used; programs without MPI never load this. */
#include <mpi.h>
#include <pomp2/pomp2_ompp.h>

#define OMPP_MPI_API __attribute__((visibility("default")))

/* MPI libraries may implement one MPI call with others through the
 * public names; such an inner call is part of the outer one's region. */
static _Thread_local int in_mpi_call;

typedef struct {
    POMP2_Region_handle* handle;
    int outermost;
} Call;

static Call call_begin(POMP2_Region_handle* handle, const char* function) {
    Call call = {handle, !in_mpi_call};
    if (call.outermost) {
        in_mpi_call = 1;
        POMP2_MPI_Begin(handle, function);
    }
    return call;
}

static void call_end(Call call, unsigned long long bytes) {
    if (!call.outermost) return;
    POMP2_MPI_End(call.handle, bytes);
    in_mpi_call = 0;
}

/* One MPI call as a region: `bytes` is evaluated after a successful call
 * of the outermost level only. */
#define MEASURED_CALL(function, bytes, call)                                         \
    do {                                                                             \
        static POMP2_Region_handle handle;                                           \
        const Call measured = call_begin(&handle, #function);                        \
        const int result = (call);                                                   \
        call_end(measured, result == MPI_SUCCESS && measured.outermost ? (bytes) : 0); \
        return result;                                                               \
    } while (0)

static unsigned long long type_bytes(int count, MPI_Datatype type) {
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0) return 0;
    return (unsigned long long)count * (unsigned long long)size;
}

static unsigned long long received_bytes(const MPI_Status* status, MPI_Datatype type) {
    int count = 0;
    if (PMPI_Get_count(status, type, &count) != MPI_SUCCESS || count == MPI_UNDEFINED) return 0;
    return type_bytes(count, type);
}

static int comm_size(MPI_Comm comm) {
    int size = 0;
    return PMPI_Comm_size(comm, &size) == MPI_SUCCESS ? size : 0;
}

static int is_root(int root, MPI_Comm comm) {
    int rank = -1;
    return PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root;
}

static unsigned long long send_bytes(const void* buffer, int count, MPI_Datatype type) {
    return buffer == MPI_IN_PLACE ? 0 : type_bytes(count, type);
}

/* libompp learns its rank in MPI_COMM_WORLD (the launcher's environment
 * said so already, under the launchers it knows). */
static void tell_process(void) {
    int rank = 0, size = 0;
    if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && PMPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS)
        POMP2_MPI_Process(rank, size);
}

OMPP_MPI_API int MPI_Init(int* argc, char*** argv) {
    static POMP2_Region_handle handle;
    const Call measured = call_begin(&handle, "MPI_Init");
    const int result = PMPI_Init(argc, argv);
    call_end(measured, 0);
    if (result == MPI_SUCCESS) tell_process();
    return result;
}

OMPP_MPI_API int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    static POMP2_Region_handle handle;
    const Call measured = call_begin(&handle, "MPI_Init_thread");
    const int result = PMPI_Init_thread(argc, argv, required, provided);
    call_end(measured, 0);
    if (result == MPI_SUCCESS) tell_process();
    return result;
}

OMPP_MPI_API int MPI_Finalize(void) { MEASURED_CALL(MPI_Finalize, 0, PMPI_Finalize()); }

/* Point to point. */
OMPP_MPI_API int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    MEASURED_CALL(MPI_Send, type_bytes(count, type), PMPI_Send(buf, count, type, dest, tag, comm));
}

OMPP_MPI_API int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    MEASURED_CALL(MPI_Ssend, type_bytes(count, type), PMPI_Ssend(buf, count, type, dest, tag, comm));
}

OMPP_MPI_API int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    MEASURED_CALL(MPI_Bsend, type_bytes(count, type), PMPI_Bsend(buf, count, type, dest, tag, comm));
}

OMPP_MPI_API int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    MEASURED_CALL(MPI_Rsend, type_bytes(count, type), PMPI_Rsend(buf, count, type, dest, tag, comm));
}

OMPP_MPI_API int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                          MPI_Status* status) {
    MPI_Status own;
    MPI_Status* used = status == MPI_STATUS_IGNORE ? &own : status;
    MEASURED_CALL(MPI_Recv, received_bytes(used, type), PMPI_Recv(buf, count, type, source, tag, comm, used));
}

OMPP_MPI_API int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                              MPI_Comm comm, MPI_Status* status) {
    MPI_Status own;
    MPI_Status* used = status == MPI_STATUS_IGNORE ? &own : status;
    MEASURED_CALL(MPI_Sendrecv, type_bytes(sendcount, sendtype) + received_bytes(used, recvtype),
                  PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                                recvtag, comm, used));
}

OMPP_MPI_API int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                           MPI_Request* request) {
    MEASURED_CALL(MPI_Isend, type_bytes(count, type), PMPI_Isend(buf, count, type, dest, tag, comm, request));
}

OMPP_MPI_API int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                           MPI_Request* request) {
    MEASURED_CALL(MPI_Irecv, type_bytes(count, type), PMPI_Irecv(buf, count, type, source, tag, comm, request));
}

OMPP_MPI_API int MPI_Wait(MPI_Request* request, MPI_Status* status) {
    MEASURED_CALL(MPI_Wait, 0, PMPI_Wait(request, status));
}

OMPP_MPI_API int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
    MEASURED_CALL(MPI_Waitall, 0, PMPI_Waitall(count, requests, statuses));
}

OMPP_MPI_API int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
    MEASURED_CALL(MPI_Waitany, 0, PMPI_Waitany(count, requests, index, status));
}

OMPP_MPI_API int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                              MPI_Status statuses[]) {
    MEASURED_CALL(MPI_Waitsome, 0, PMPI_Waitsome(incount, requests, outcount, indices, statuses));
}

OMPP_MPI_API int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
    MEASURED_CALL(MPI_Probe, 0, PMPI_Probe(source, tag, comm, status));
}

/* Collectives: this rank's part of the data. */
OMPP_MPI_API int MPI_Barrier(MPI_Comm comm) { MEASURED_CALL(MPI_Barrier, 0, PMPI_Barrier(comm)); }

OMPP_MPI_API int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    MEASURED_CALL(MPI_Bcast, type_bytes(count, type), PMPI_Bcast(buffer, count, type, root, comm));
}

OMPP_MPI_API int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                            MPI_Comm comm) {
    MEASURED_CALL(MPI_Reduce, type_bytes(count, type), PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

OMPP_MPI_API int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                               MPI_Comm comm) {
    MEASURED_CALL(MPI_Allreduce, type_bytes(count, type), PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

OMPP_MPI_API int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    MEASURED_CALL(MPI_Gather,
                  send_bytes(sendbuf, sendcount, sendtype) +
                      (is_root(root, comm) ? type_bytes(recvcount, recvtype) * (unsigned)comm_size(comm) : 0),
                  PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

OMPP_MPI_API int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    MEASURED_CALL(MPI_Scatter,
                  (recvbuf == MPI_IN_PLACE ? 0 : type_bytes(recvcount, recvtype)) +
                      (is_root(root, comm) ? type_bytes(sendcount, sendtype) * (unsigned)comm_size(comm) : 0),
                  PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

OMPP_MPI_API int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    MEASURED_CALL(MPI_Allgather,
                  send_bytes(sendbuf, sendcount, sendtype) +
                      type_bytes(recvcount, recvtype) * (unsigned)comm_size(comm),
                  PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

OMPP_MPI_API int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    MEASURED_CALL(MPI_Alltoall,
                  (send_bytes(sendbuf, sendcount, sendtype) + type_bytes(recvcount, recvtype)) *
                      (unsigned)comm_size(comm),
                  PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}
